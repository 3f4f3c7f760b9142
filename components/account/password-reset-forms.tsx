'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, Button, Card, Field, FocusOnMount, Input } from '@/components/ui';
import { applyFieldErrors, portalFetch } from '@/lib/portal/fetcher';
import {
  ZForgotPasswordRequest,
  ZResetPasswordRequest,
  type TForgotPasswordRequest,
  type TResetPasswordRequest,
} from '@/lib/schemas/portal';
import type { TForgotPasswordResponse } from '@/lib/schemas/portal-responses';

// The signed-out half of a password reset: asking for a link (/forgot-password) and using it (/reset-password).

export function ForgotPasswordForm() {
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<TForgotPasswordRequest>({ resolver: zodResolver(ZForgotPasswordRequest), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await portalFetch<TForgotPasswordResponse>('/portal-api/auth/forgot-password', { body: values });
      setSent(answer.message);
    } catch (error) {
      setFormError(applyFieldErrors(error, form.setError, ['email']).join(' ') || null);
      if (form.getFieldState('email').error) form.setFocus('email');
    }
  });

  return (
    <Card>
      <h1 className="mb-2 text-xl font-semibold">Reset your password</h1>
      {sent ? (
        <div className="space-y-4">
          <FocusOnMount focusKey={sent}>
            <Alert tone="success">{sent}</Alert>
          </FocusOnMount>
          <p className="text-sm text-slate-700">No mail after a few minutes? Check the spam folder, or ask again.</p>
          <Button variant="secondary" onClick={() => setSent(null)}>
            Send another link
          </Button>
        </div>
      ) : (
        <>
          <p className="mb-4 text-sm text-slate-700">
            Enter the e-mail you sign in with and we will send you a link to choose a new password.
          </p>
          <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
            {formError ? (
              <FocusOnMount focusKey={formError}>
                <Alert tone="danger">{formError}</Alert>
              </FocusOnMount>
            ) : null}
            <Field label="E-mail" error={errors.email?.message} required>
              <Input type="email" autoComplete="email" {...form.register('email')} />
            </Field>
            <Button type="submit" loading={isSubmitting} className="w-full">
              Send reset link
            </Button>
          </form>
        </>
      )}
      <p className="mt-4 text-sm text-slate-700">
        Remembered it?{' '}
        <Link href="/sign-in" className="font-medium text-brand-700 underline">
          Sign in
        </Link>
      </p>
    </Card>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TResetPasswordRequest>({
    resolver: zodResolver(ZResetPasswordRequest),
    defaultValues: { token, password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await portalFetch('/portal-api/auth/reset-password', { body: values });
      // Signed in afresh (every other session ended): the bare URL opens the environment last used here.
      router.replace('/dashboard');
      router.refresh();
    } catch (error) {
      setFormError(applyFieldErrors(error, form.setError, ['password']).join(' ') || null);
      if (form.getFieldState('password').error) form.setFocus('password');
    }
  });

  return (
    <Card>
      <h1 className="mb-2 text-xl font-semibold">Choose a new password</h1>
      <p className="mb-4 text-sm text-slate-700">This signs your account out everywhere else.</p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
        {formError ? (
          <FocusOnMount focusKey={formError}>
            <Alert tone="danger">
              {formError}{' '}
              <Link href="/forgot-password" className="font-medium underline">
                Ask for a new link
              </Link>
            </Alert>
          </FocusOnMount>
        ) : null}
        <Field label="New password" error={errors.password?.message} hint="At least 10 characters." required>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Button type="submit" loading={isSubmitting} className="w-full">
          Set new password
        </Button>
      </form>
    </Card>
  );
}

/** A link that cannot be used: why, and the way on. */
export function ResetLinkRefused({ message }: { message: string }) {
  return (
    <Card>
      <h1 className="mb-2 text-xl font-semibold">This link cannot be used</h1>
      <Alert tone="warning">{message}</Alert>
      <div className="mt-4 flex flex-wrap gap-3 text-sm">
        <Link href="/forgot-password" className="font-medium text-brand-700 underline">
          Ask for a new link
        </Link>
        <Link href="/sign-in" className="font-medium text-brand-700 underline">
          Sign in
        </Link>
      </div>
    </Card>
  );
}
