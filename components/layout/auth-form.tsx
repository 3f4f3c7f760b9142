'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, Button, Card, Field, FocusOnMount, Input } from '@/components/ui';
import { applyFieldErrors, portalFetch } from '@/lib/portal/fetcher';
import { ZSignInRequest, ZSignUpRequest, type TSignInRequest, type TSignUpRequest } from '@/lib/schemas/portal';
import type { TSignUpResponse } from '@/lib/schemas/portal-responses';

// Without `next`, /dashboard: the proxy sends a bare portal URL to the environment last used here.
function safeNext(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/dashboard';
}

export function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TSignInRequest>({ resolver: zodResolver(ZSignInRequest), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await portalFetch('/portal-api/auth/sign-in', { body: values });
      router.replace(safeNext(params.get('next')));
      router.refresh();
    } catch (error) {
      const rest = applyFieldErrors(error, form.setError, ['email', 'password']).join(' ');
      setFormError(rest || null);
      // Focus goes to the refusal (the alert), or to the field it names; never back to <body>.
      const field = (['email', 'password'] as const).find((f) => form.getFieldState(f).error);
      if (!rest && field) form.setFocus(field);
    }
  });

  return (
    <Card>
      <h1 className="mb-4 text-xl font-semibold">Sign in</h1>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
        {formError ? (
          <FocusOnMount focusKey={formError}>
            <Alert tone="danger">{formError}</Alert>
          </FocusOnMount>
        ) : null}
        <Field label="E-mail" error={errors.email?.message} required>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field label="Password" error={errors.password?.message} required>
          <Input type="password" autoComplete="current-password" {...form.register('password')} />
        </Field>
        <Button type="submit" loading={isSubmitting} className="w-full">
          Sign in
        </Button>
      </form>
      <p className="mt-4 text-sm text-slate-700">
        <Link href="/forgot-password" className="font-medium text-brand-700 underline">
          Forgot password?
        </Link>
      </p>
      <p className="mt-2 text-sm text-slate-700">
        New to Carrier?{' '}
        <Link href="/sign-up" className="font-medium text-brand-700 underline">
          Create an account
        </Link>
      </p>
    </Card>
  );
}

export function SignUpForm() {
  const [formError, setFormError] = useState<string | null>(null);
  // After a 202: what was sent (the same answer for every e-mail), and the values, to send the link again.
  const [sent, setSent] = useState<{ message: string; values: TSignUpRequest } | null>(null);
  const form = useForm<TSignUpRequest>({
    resolver: zodResolver(ZSignUpRequest),
    defaultValues: { company: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await portalFetch<TSignUpResponse>('/portal-api/auth/sign-up', { body: values });
      setSent({ message: answer.message, values });
    } catch (error) {
      const rest = applyFieldErrors(error, form.setError, ['company', 'email', 'password']).join(' ');
      setFormError(rest || null);
      const field = (['company', 'email', 'password'] as const).find((f) => form.getFieldState(f).error);
      if (!rest && field) form.setFocus(field);
    }
  });

  if (sent) return <CheckInbox sent={sent} onChangeEmail={() => setSent(null)} />;
  return (
    <Card>
      <h1 className="mb-4 text-xl font-semibold">Create your shipper account</h1>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
        {formError ? (
          <FocusOnMount focusKey={formError}>
            <Alert tone="danger">{formError}</Alert>
          </FocusOnMount>
        ) : null}
        <Field label="Company name" error={errors.company?.message} required>
          <Input autoComplete="organization" {...form.register('company')} />
        </Field>
        <Field
          label="E-mail"
          error={errors.email?.message}
          hint="We send a link to it: the account is made when you open it."
          required
        >
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field label="Password" error={errors.password?.message} hint="At least 10 characters." required>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Button type="submit" loading={isSubmitting} className="w-full">
          Create account
        </Button>
      </form>
      <SignInInstead />
    </Card>
  );
}

function SignInInstead() {
  return (
    <p className="mt-4 text-sm text-slate-700">
      Already have an account?{' '}
      <Link href="/sign-in" className="font-medium text-brand-700 underline">
        Sign in
      </Link>
    </p>
  );
}

/** "Check your inbox": the sign-up's one answer; sending again posts the same sign-up (the newest link wins). */
function CheckInbox({ sent, onChangeEmail }: { sent: { message: string; values: TSignUpRequest }; onChangeEmail: () => void }) {
  const [message, setMessage] = useState(sent.message);
  const [again, setAgain] = useState<{ busy: boolean; error: string | null; count: number }>({
    busy: false,
    error: null,
    count: 0,
  });

  const sendAgain = async () => {
    setAgain((a) => ({ ...a, busy: true, error: null }));
    try {
      const answer = await portalFetch<TSignUpResponse>('/portal-api/auth/sign-up', { body: sent.values });
      setMessage(answer.message);
      setAgain((a) => ({ busy: false, error: null, count: a.count + 1 }));
    } catch (error) {
      setAgain((a) => ({ ...a, busy: false, error: error instanceof Error ? error.message : 'Something went wrong.' }));
    }
  };

  return (
    <Card>
      <h1 className="mb-2 text-xl font-semibold">Check your inbox</h1>
      <div className="space-y-4">
        <FocusOnMount focusKey={`${message}-${again.count}`}>
          <Alert tone="success">{message}</Alert>
        </FocusOnMount>
        <p className="text-sm text-slate-700">
          We sent it to <strong className="break-all">{sent.values.email}</strong>. The link works once; until you open it, no
          account exists.
        </p>
        <p className="text-sm text-slate-700">
          No mail after a few minutes? Check the spam folder, or send it again: the newest link replaces the older ones.
        </p>
        {again.error ? <Alert tone="danger">{again.error}</Alert> : null}
        {again.count > 0 && !again.error ? <p className="text-sm text-slate-700">Sent again.</p> : null}
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" loading={again.busy} onClick={() => void sendAgain()}>
            Send the link again
          </Button>
          <Button variant="secondary" onClick={onChangeEmail}>
            Use another e-mail
          </Button>
        </div>
      </div>
      <SignInInstead />
    </Card>
  );
}
