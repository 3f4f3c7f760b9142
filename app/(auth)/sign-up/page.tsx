import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignUpForm } from '@/components/layout/auth-form';
import { getSession } from '@/lib/auth/session';
import { lastUsedEnvironment } from '@/lib/portal/environment';
import { portalPath } from '@/lib/portal/paths';

export const metadata: Metadata = { title: 'Create an account' };

// GET /sign-up
export default async function SignUpPage() {
  if (await getSession()) redirect(portalPath(await lastUsedEnvironment(), '/dashboard'));
  return <SignUpForm />;
}
