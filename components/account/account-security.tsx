'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardTitle,
  ConfirmInline,
  ErrorState,
  Field,
  FocusOnMount,
  Input,
  LoadingBlock,
  Table,
  Td,
  Th,
  Tr,
  DateTime,
  useFormatDateTime,
} from '@/components/ui';
import { applyFieldErrors } from '@/lib/portal/fetcher';
import { ZChangePasswordRequest, type TChangePasswordRequest } from '@/lib/schemas/portal';
import type {
  TPasswordChangedResponse,
  TSessionListResponse,
  TSessionRow,
  TSessionsEndedResponse,
} from '@/lib/schemas/portal-responses';

// The signed-in user's own security: change the password (the other sessions end) and see and end sessions.

const FIELDS = ['currentPassword', 'newPassword'] as const;

export function ChangePasswordForm() {
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<TChangePasswordRequest>({
    resolver: zodResolver(ZChangePasswordRequest),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setDone(null);
    try {
      const answer = await portal.fetch<TPasswordChangedResponse>('/portal-api/account/password', { body: values });
      form.reset();
      const others = answer.sessionsEnded === 1 ? '1 other session was' : `${answer.sessionsEnded} other sessions were`;
      setDone(`Password changed. ${others} signed out; this one stays signed in.`);
      void queryClient.invalidateQueries({ queryKey: portal.key('account-sessions') });
    } catch (error) {
      setFormError(applyFieldErrors(error, form.setError, FIELDS).join(' ') || null);
      const field = FIELDS.find((f) => form.getFieldState(f).error);
      if (field) form.setFocus(field);
    }
  });

  return (
    <Card>
      <CardTitle>Change password</CardTitle>
      <p className="mb-4 mt-1 text-sm text-slate-600">Every other session of your account is signed out; this one stays.</p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="max-w-md space-y-4">
        {formError ? (
          <FocusOnMount focusKey={formError}>
            <Alert tone="danger">{formError}</Alert>
          </FocusOnMount>
        ) : null}
        {done ? (
          <FocusOnMount focusKey={done}>
            <Alert tone="success">{done}</Alert>
          </FocusOnMount>
        ) : null}
        <Field label="Current password" error={errors.currentPassword?.message} required>
          <Input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
        </Field>
        <Field label="New password" error={errors.newPassword?.message} hint="At least 10 characters." required>
          <Input type="password" autoComplete="new-password" {...form.register('newPassword')} />
        </Field>
        <Button type="submit" loading={isSubmitting}>
          Change password
        </Button>
      </form>
    </Card>
  );
}

/** "Firefox on Linux" from a user agent, or the user agent itself when it is none we know. */
function describeAgent(agent: string | null): string {
  if (!agent) return 'Unknown device';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : null;
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS X/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : null;
  return browser && system ? `${browser} on ${system}` : agent.slice(0, 60);
}

function signedOutHere() {
  // A full navigation: nothing of this session may stay in memory (as the fetcher does on a 401).
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign('/sign-in');
}

function RevokeSessionButton({ session }: { session: TSessionRow }) {
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const formatDateTime = useFormatDateTime();
  const revoke = useMutation({
    mutationFn: () =>
      portal.fetch<TSessionsEndedResponse>(`/portal-api/account/sessions/${encodeURIComponent(session.id)}`, {
        method: 'DELETE',
      }),
    onSuccess: (answer) =>
      answer.signedOut ? signedOutHere() : void queryClient.invalidateQueries({ queryKey: portal.key('account-sessions') }),
  });
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        size="sm"
        loading={revoke.isPending}
        onClick={() => revoke.mutate()}
        aria-label={`${session.current ? 'Sign out' : 'Revoke'} ${describeAgent(session.userAgent)}, started ${formatDateTime(session.createdAt)}`}
      >
        {session.current ? 'Sign out' : 'Revoke'}
      </Button>
      {revoke.isError ? (
        <span role="alert" className="text-sm text-red-700">
          {revoke.error.message}
        </span>
      ) : null}
    </span>
  );
}

export function SessionsPanel() {
  const portal = usePortalEnvironment();
  const sessions = useQuery({
    queryKey: portal.key('account-sessions'),
    queryFn: ({ signal }) => portal.fetch<TSessionListResponse>('/portal-api/account/sessions', { signal }),
  });
  const everywhere = useMutation({
    mutationFn: () => portal.fetch<TSessionsEndedResponse>('/portal-api/account/sessions', { method: 'DELETE' }),
    onSuccess: signedOutHere,
  });

  return (
    <Card>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <CardTitle>Sessions</CardTitle>
          <p className="mt-1 text-sm text-slate-600">Where your account is signed in. Revoke any you do not recognise.</p>
        </div>
        <ConfirmInline
          label="Sign out everywhere"
          confirmLabel="Confirm: sign out everywhere"
          busy={everywhere.isPending}
          onConfirm={() => everywhere.mutate()}
        />
      </div>
      {everywhere.isError ? <Alert tone="danger">{everywhere.error.message}</Alert> : null}
      <div className="mt-3">
        {sessions.isPending ? (
          <LoadingBlock label="Loading sessions…" />
        ) : sessions.isError ? (
          <ErrorState title="Could not load sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : (
          <>
            {/* Phones: one card per session, the action in reach; wider screens: the table. */}
            <ul className="space-y-3 sm:hidden" aria-label="Sessions">
              {sessions.data.sessions.map((session) => (
                <li key={session.id} className="rounded-md border border-slate-200 p-3" data-testid="session-card">
                  <p className="font-medium">
                    {describeAgent(session.userAgent)}
                    {session.current ? (
                      <span className="ml-2">
                        <Badge tone="success">This device</Badge>
                      </span>
                    ) : null}
                  </p>
                  <p className="mt-1 text-sm text-slate-700">
                    {session.address ?? 'Unknown address'} · signed in <DateTime value={session.createdAt} />
                  </p>
                  <p className="text-sm text-slate-700">
                    Last seen {session.lastSeenAt ? <DateTime value={session.lastSeenAt} /> : '—'}
                  </p>
                  <div className="mt-2">
                    <RevokeSessionButton session={session} />
                  </div>
                </li>
              ))}
            </ul>
            <div className="hidden sm:block">
              <Table label="Sessions">
                <thead>
                  <tr>
                    <Th>Device</Th>
                    <Th>Address</Th>
                    <Th>Signed in</Th>
                    <Th>Last seen</Th>
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {sessions.data.sessions.map((session) => (
                    <Tr key={session.id} data-testid="session-row">
                      <Td className="font-medium">
                        <span title={session.userAgent ?? undefined}>{describeAgent(session.userAgent)}</span>
                        {session.current ? (
                          <span className="ml-2">
                            <Badge tone="success">This device</Badge>
                          </span>
                        ) : null}
                      </Td>
                      <Td>{session.address ?? '—'}</Td>
                      <Td>
                        <DateTime value={session.createdAt} />
                      </Td>
                      <Td>{session.lastSeenAt ? <DateTime value={session.lastSeenAt} /> : '—'}</Td>
                      <Td>
                        <RevokeSessionButton session={session} />
                      </Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
            </div>
          </>
        )}
      </div>
    </Card>
  );
}
