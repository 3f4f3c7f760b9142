import { notFound, redirect } from 'next/navigation';
import { isEnvironment, portalPath } from '@/lib/portal/paths';

// GET /test, /live: the environment's dashboard.
export default async function EnvironmentHome({ params }: { params: Promise<{ environment: string }> }) {
  const { environment } = await params;
  if (!isEnvironment(environment)) notFound();
  redirect(portalPath(environment, '/dashboard'));
}
