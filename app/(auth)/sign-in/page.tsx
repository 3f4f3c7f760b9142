import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { SignInForm } from '@/components/layout/auth-form';
import { getSession } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Sign in' };

// GET /sign-in
export default async function SignInPage() {
  if (await getSession()) redirect('/dashboard');
  return (
    <Suspense>
      <SignInForm />
    </Suspense>
  );
}
