import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import Link from 'next/link';
import { Suspense } from 'react';
import { SignInForm } from '@/components/layout/auth-form';
import { getSession } from '@/lib/auth/session';
import { lastUsedEnvironment } from '@/lib/portal/environment';
import { portalPath } from '@/lib/portal/paths';

export const metadata: Metadata = { title: 'Sign in' };

// GET /sign-in
export default async function SignInPage() {
  if (await getSession()) redirect(portalPath(await lastUsedEnvironment(), '/dashboard'));
  return (
    <>
      <Suspense>
        <SignInForm />
      </Suspense>
      <p className="mt-6 text-center text-sm text-gray-600">
        Integrating? The{' '}
        <Link className="text-brand-700 underline" href="/reference">
          API reference
        </Link>{' '}
        needs no account.
      </p>
    </>
  );
}
