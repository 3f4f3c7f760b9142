'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, Button, Card, Field, FocusOnMount, Input } from '@/components/ui';
import { applyFieldErrors, portalFetch } from '@/lib/portal/fetcher';
import { portalPath } from '@/lib/portal/paths';
import { ZSignInRequest, ZSignUpRequest, type TSignInRequest, type TSignUpRequest } from '@/lib/schemas/portal';

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
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TSignUpRequest>({
    resolver: zodResolver(ZSignUpRequest),
    defaultValues: { company: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await portalFetch('/portal-api/auth/sign-up', { body: values });
      // A new account starts in test, whatever this browser used before.
      router.replace(portalPath('test', '/dashboard'));
      router.refresh();
    } catch (error) {
      const rest = applyFieldErrors(error, form.setError, ['company', 'email', 'password']).join(' ');
      setFormError(rest || null);
      const field = (['company', 'email', 'password'] as const).find((f) => form.getFieldState(f).error);
      if (!rest && field) form.setFocus(field);
    }
  });

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
        <Field label="E-mail" error={errors.email?.message} required>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </Field>
        <Field label="Password" error={errors.password?.message} hint="At least 10 characters." required>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Button type="submit" loading={isSubmitting} className="w-full">
          Create account
        </Button>
      </form>
      <p className="mt-4 text-sm text-slate-700">
        Already have an account?{' '}
        <Link href="/sign-in" className="font-medium text-brand-700 underline">
          Sign in
        </Link>
      </p>
    </Card>
  );
}
