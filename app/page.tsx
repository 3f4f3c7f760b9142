import { redirect } from 'next/navigation';
import { getSession } from '@/lib/auth/session';

// GET /: the portal's front door.
export default async function Home() {
  redirect((await getSession()) ? '/dashboard' : '/sign-in');
}
