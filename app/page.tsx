import { redirect } from 'next/navigation';
import { getSession } from '@/lib/auth/session';
import { lastUsedEnvironment } from '@/lib/portal/environment';
import { portalPath } from '@/lib/portal/paths';

// GET /: the portal's front door (the dashboard of the environment last used in this browser).
export default async function Home() {
  redirect((await getSession()) ? portalPath(await lastUsedEnvironment(), '/dashboard') : '/sign-in');
}
