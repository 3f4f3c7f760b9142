'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, Button, Card, Field, FocusOnMount, Input } from '@/components/ui';
import { applyFieldErrors, PortalError, portalFetch } from '@/lib/portal/fetcher';
import { portalPath } from '@/lib/portal/paths';
import { ZVerifySignUpRequest, type TVerifySignUpRequest } from '@/lib/schemas/portal';

// The second half of a sign-up: the link in the mail (/verify-email), which creates the account when confirmed.

export function VerifySignUpForm(props: { token: string; email: string; company: string; companyTaken: boolean }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  // The company field shows only when the name asked for at sign-up was taken meanwhile (here or on submit).
  const [askCompany, setAskCompany] = useState(props.companyTaken);
  const form = useForm<TVerifySignUpRequest>({
    resolver: zodResolver(ZVerifySignUpRequest),
    defaultValues: { token: props.token, company: props.company },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await portalFetch('/portal-api/auth/verify-email', { body: askCompany ? values : { token: values.token } });
      // A new account starts in test, whatever this browser used before.
      router.replace(portalPath('test', '/dashboard'));
      router.refresh();
    } catch (error) {
      const companyRefused = error instanceof PortalError && error.details.some((d) => d.path === 'company');
      if (companyRefused) setAskCompany(true);
      const rest = applyFieldErrors(error, form.setError, ['company']).join(' ');
      setFormError(rest || null);
      if (companyRefused) form.setFocus('company');
    }
  });

  return (
    <Card>
      <h1 className="mb-2 text-xl font-semibold">Create your account</h1>
      <p className="mb-4 text-sm text-slate-700">
        Your e-mail <strong className="break-all">{props.email}</strong> is confirmed. Create the account and you will be its
        owner: you can invite colleagues once you are in.
      </p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
        {formError ? (
          <FocusOnMount focusKey={formError}>
            <Alert tone="danger">
              {formError}{' '}
              <Link href="/sign-in" className="font-medium underline">
                Sign in
              </Link>
            </Alert>
          </FocusOnMount>
        ) : null}
        {askCompany ? (
          <>
            <Alert tone="warning">
              Another account took the company name “{props.company}” after you signed up. Choose another name: your link still
              works.
            </Alert>
            <Field label="Company name" error={errors.company?.message} required>
              <Input autoComplete="organization" {...form.register('company')} />
            </Field>
          </>
        ) : (
          <dl className="rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm">
            <dt className="text-slate-600">Company name</dt>
            <dd className="break-words font-medium text-slate-900">{props.company}</dd>
          </dl>
        )}
        <Button type="submit" loading={isSubmitting} className="w-full">
          Confirm and create account
        </Button>
      </form>
    </Card>
  );
}

/** A link that cannot be used: why, and the way on. */
export function SignUpLinkRefused({ message }: { message: string }) {
  return (
    <Card>
      <h1 className="mb-2 text-xl font-semibold">This link cannot be used</h1>
      <Alert tone="warning">{message}</Alert>
      <div className="mt-4 flex flex-wrap gap-3 text-sm">
        <Link href="/sign-up" className="font-medium text-brand-700 underline">
          Sign up again
        </Link>
        <Link href="/sign-in" className="font-medium text-brand-700 underline">
          Sign in
        </Link>
        <Link href="/forgot-password" className="font-medium text-brand-700 underline">
          Forgot password?
        </Link>
      </div>
    </Card>
  );
}
