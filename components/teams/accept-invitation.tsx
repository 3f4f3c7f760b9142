'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, Badge, Button, Card, Field, FocusOnMount, Input } from '@/components/ui';
import { applyFieldErrors, portalFetch, PortalError } from '@/lib/portal/fetcher';
import {
  ZAcceptAsExistingUserForm,
  ZAcceptAsNewUserForm,
  type TAcceptAsExistingUserForm,
  type TAcceptAsNewUserForm,
  type TInvitationAcceptedResponse,
} from '@/lib/schemas/invitations';

// The page an invitation mail links to (/invitations/accept?token=…): which account and role, then the one step that
// fits who opens it: a new user chooses a password, an existing user signs in (or is signed in already), someone
// signed in as another user is told so and offered to sign out.

export interface InvitationSummary {
  email: string;
  role: string;
  accountName: string;
  invitedBy: string | null;
}

const ACCEPT = '/portal-api/auth/accept-invitation';

/** After joining: a full navigation, so nothing of another account's pages stays in memory. */
function openPortal() {
  // A document load on purpose (not the router): the session now acts for the joined account.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign('/dashboard');
}

function Summary({ invitation }: { invitation: InvitationSummary }) {
  return (
    <div className="mb-4 space-y-2">
      <h1 className="text-xl font-semibold">{`Join ${invitation.accountName}`}</h1>
      <p className="text-sm text-slate-700">
        {invitation.invitedBy ? <>{invitation.invitedBy} invited </> : 'You are invited: '}
        <strong className="break-all">{invitation.email}</strong> to the account <strong>{invitation.accountName}</strong> as{' '}
        <Badge tone="info">{invitation.role}</Badge>
      </p>
    </div>
  );
}

function Joined({ answer }: { answer: TInvitationAcceptedResponse }) {
  return (
    <div className="space-y-4">
      <FocusOnMount focusKey={answer.message}>
        <Alert tone="success">{answer.message}</Alert>
      </FocusOnMount>
      <Button onClick={openPortal} className="w-full">
        Open {answer.account.name}
      </Button>
    </div>
  );
}

/**
 * Accepting with a password, signed out: a new user chooses one (the invitation proves the e-mail), an existing user
 * signs in with theirs (a wrong one is named on the field).
 */
export function AcceptWithPassword({
  token,
  invitation,
  existingUser,
}: {
  token: string;
  invitation: InvitationSummary;
  existingUser: boolean;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const [joined, setJoined] = useState<TInvitationAcceptedResponse | null>(null);
  const form = useForm<TAcceptAsNewUserForm | TAcceptAsExistingUserForm>({
    resolver: zodResolver(existingUser ? ZAcceptAsExistingUserForm : ZAcceptAsNewUserForm),
    defaultValues: { token, password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      setJoined(await portalFetch<TInvitationAcceptedResponse>(ACCEPT, { body: values }));
    } catch (error) {
      if (existingUser && error instanceof PortalError && error.status === 401) {
        form.setError('password', { type: 'server', message: 'is not the password of this e-mail' });
        form.setFocus('password');
        return;
      }
      setFormError(applyFieldErrors(error, form.setError, ['password']).join(' ') || null);
      if (form.getFieldState('password').error) form.setFocus('password');
    }
  });
  return (
    <Card>
      <Summary invitation={invitation} />
      {joined ? (
        <Joined answer={joined} />
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
          <p className="text-sm text-slate-700">
            {existingUser
              ? 'You already use Carrier with this e-mail: sign in to join.'
              : 'Choose a password to create your user and join.'}
          </p>
          {formError ? (
            <FocusOnMount focusKey={formError}>
              <Alert tone="danger">{formError}</Alert>
            </FocusOnMount>
          ) : null}
          <Field label="E-mail" hint={existingUser ? undefined : 'The invitation is for this address.'}>
            <Input type="email" value={invitation.email} readOnly autoComplete="username" />
          </Field>
          <Field
            label="Password"
            error={errors.password?.message}
            hint={existingUser ? undefined : 'At least 10 characters.'}
            required
          >
            <Input
              type="password"
              autoComplete={existingUser ? 'current-password' : 'new-password'}
              {...form.register('password')}
            />
          </Field>
          <Button type="submit" loading={isSubmitting} className="w-full">
            {existingUser ? 'Sign in and join' : 'Create user and join'}
          </Button>
          {existingUser ? (
            <p className="text-sm text-slate-700">
              <Link href="/forgot-password" className="font-medium text-brand-700 underline">
                Forgot password?
              </Link>{' '}
              Reset it, then open this link again.
            </p>
          ) : null}
        </form>
      )}
    </Card>
  );
}

/** The invited user, signed in already: one button (or, a member already, a way in). */
export function AcceptSignedIn({
  token,
  invitation,
  memberAs,
}: {
  token: string;
  invitation: InvitationSummary;
  memberAs: string | null;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [joined, setJoined] = useState<TInvitationAcceptedResponse | null>(null);
  async function accept() {
    setBusy(true);
    setError(null);
    try {
      setJoined(await portalFetch<TInvitationAcceptedResponse>(ACCEPT, { body: { token } }));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card>
      <Summary invitation={invitation} />
      {joined ? (
        <Joined answer={joined} />
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">
            You are signed in as <strong className="break-all">{invitation.email}</strong>.
          </p>
          {memberAs ? (
            <Alert tone="info">
              You are already a member of {invitation.accountName} (as {memberAs}). Accepting changes nothing but uses up the link
              and opens the account.
            </Alert>
          ) : null}
          {error ? (
            <FocusOnMount focusKey={error}>
              <Alert tone="danger">{error}</Alert>
            </FocusOnMount>
          ) : null}
          <Button onClick={() => void accept()} loading={busy} className="w-full">
            {memberAs ? `Open ${invitation.accountName}` : `Join ${invitation.accountName}`}
          </Button>
        </div>
      )}
    </Card>
  );
}

/** Signed in as another user than the invited e-mail: say so, offer to sign out (then this page asks for the right one). */
export function AcceptAsOtherUser({ invitation, signedInAs }: { invitation: InvitationSummary; signedInAs: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    try {
      await portalFetch('/portal-api/session', { method: 'DELETE', environment: 'test' });
    } catch {
      // The page shows what is true after the refresh either way.
    } finally {
      router.refresh();
      setBusy(false);
    }
  }
  return (
    <Card>
      <Summary invitation={invitation} />
      <div className="space-y-4">
        <Alert tone="warning">
          You are signed in as <strong className="break-all">{signedInAs}</strong>, but this invitation is for{' '}
          <strong className="break-all">{invitation.email}</strong>. Sign out to accept it as {invitation.email}.
        </Alert>
        <Button onClick={() => void signOut()} loading={busy} className="w-full">
          Sign out of {signedInAs}
        </Button>
        <Link href="/dashboard" className="block text-center text-sm font-medium text-brand-700 underline">
          Keep working as {signedInAs}
        </Link>
      </div>
    </Card>
  );
}

/** A link that cannot be used: why (expired, used, revoked, not valid), and the way on. */
export function InvitationRefused({ title, message }: { title: string; message: string }) {
  return (
    <Card>
      <h1 className="mb-2 text-xl font-semibold">{title}</h1>
      <Alert tone="warning">{message}</Alert>
      <div className="mt-4 flex flex-wrap gap-3 text-sm">
        <Link href="/sign-in" className="font-medium text-brand-700 underline">
          Sign in
        </Link>
      </div>
    </Card>
  );
}
