'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { usePortal, usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardTitle,
  ConfirmInline,
  EmptyState,
  ErrorState,
  Field,
  FocusOnMount,
  Input,
  LoadingBlock,
  RequestLink,
  Select,
  Table,
  Td,
  Th,
  Tr,
  DateTime,
} from '@/components/ui';
import type { MemberRole } from '@/lib/generated/prisma/enums';
import { applyFieldErrors, PortalError } from '@/lib/portal/fetcher';
import {
  ZCreateInvitationRequest,
  type TCreateInvitationRequest,
  type TInvitationCreatedResponse,
  type TInvitationListResponse,
  type TInvitationView,
} from '@/lib/schemas/invitations';
import { can, MEMBER_ROLES } from '@/lib/teams/permissions';

// The Members page's invitations: invite an e-mail with a role, the open invitations, revoke one. For members:manage
// (owners, admins); inviting as owner only for owners:manage (owners). The member list itself is another component.

function InviteForm() {
  const portal = usePortalEnvironment();
  const { accounts = [] } = usePortal();
  const myRole = (accounts.find((a) => a.current)?.role ?? 'viewer') as MemberRole;
  const roles = MEMBER_ROLES.filter((role) => role !== 'owner' || can(myRole, 'owners:manage'));
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<TInvitationCreatedResponse | null>(null);
  const form = useForm<TCreateInvitationRequest>({
    resolver: zodResolver(ZCreateInvitationRequest),
    defaultValues: { email: '', role: 'operator' },
  });
  const { errors } = form.formState;
  const invite = useMutation({
    mutationFn: (values: TCreateInvitationRequest) =>
      portal.fetch<TInvitationCreatedResponse>('/portal-api/invitations', { body: values }),
    onSuccess: (answer) => {
      setSent(answer);
      form.reset({ email: '', role: form.getValues('role') });
      void queryClient.invalidateQueries({ queryKey: portal.key('invitations') });
    },
    onError: (error) => {
      setFormError(applyFieldErrors(error, form.setError, ['email', 'role']).join(' ') || null);
      const field = (['email', 'role'] as const).find((f) => form.getFieldState(f).error);
      if (field) form.setFocus(field);
    },
  });
  return (
    <form
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          setFormError(null);
          setSent(null);
          invite.mutate(values);
        })(event)
      }
      className="space-y-4"
    >
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <Field label="E-mail" error={errors.email?.message} required>
          <Input type="email" autoComplete="off" placeholder="colleague@example.com" {...form.register('email')} />
        </Field>
        <Field label="Role" error={errors.role?.message} required>
          <Select {...form.register('role')}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Button type="submit" loading={invite.isPending}>
        Send invitation
      </Button>
      {sent ? (
        <FocusOnMount focusKey={sent.invitation.id}>
          <Alert tone="success">{sent.message}</Alert>
        </FocusOnMount>
      ) : null}
      {formError ? (
        <FocusOnMount focusKey={formError}>
          <Alert tone="danger">
            {formError}
            <RequestLink error={invite.error} />
          </Alert>
        </FocusOnMount>
      ) : null}
    </form>
  );
}

/** A refusal that means this page's list is out of date: the invitation was accepted (409) or is gone (404) since it loaded. */
const overtaken = (error: unknown): error is PortalError =>
  error instanceof PortalError && (error.status === 409 || error.status === 404);

function RevokeInvitation({
  invitation,
  onOvertaken,
}: {
  invitation: TInvitationView;
  onOvertaken: (error: PortalError) => void;
}) {
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => portal.fetch(`/portal-api/invitations/${encodeURIComponent(invitation.id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: portal.key('invitations') }),
    onError: (error) => {
      if (!overtaken(error)) return;
      // A tab left open while the invitee accepted: the lists are refreshed (this row goes, the member appears), and
      // the answer is said above the list, since the row it was asked from is about to go.
      onOvertaken(error);
      void queryClient.invalidateQueries({ queryKey: portal.key('invitations') });
      void queryClient.invalidateQueries({ queryKey: portal.key('members') });
    },
  });
  return (
    <ConfirmInline
      label="Revoke"
      ariaLabel={`Revoke the invitation to ${invitation.email}`}
      confirmLabel="Confirm revoke"
      busy={revoke.isPending}
      onConfirm={() => revoke.mutate()}
      error={overtaken(revoke.error) ? null : revoke.error}
    />
  );
}

function PendingInvitations() {
  const portal = usePortalEnvironment();
  const [refused, setRefused] = useState<PortalError | null>(null);
  const invitations = useQuery({
    queryKey: portal.key('invitations'),
    queryFn: ({ signal }) => portal.fetch<TInvitationListResponse>('/portal-api/invitations', { signal }),
  });
  if (invitations.isPending) return <LoadingBlock label="Loading invitations" />;
  if (invitations.isError)
    return (
      <ErrorState
        title="The invitations could not be loaded"
        error={invitations.error}
        onRetry={() => void invitations.refetch()}
      />
    );
  const rows = invitations.data.invitations;
  const notice = refused ? (
    <FocusOnMount focusKey={refused} className="mb-3 focus:outline-none">
      <Alert tone="danger">
        Not revoked: {refused.message}
        <RequestLink error={refused} />
      </Alert>
    </FocusOnMount>
  ) : null;
  if (rows.length === 0) {
    return (
      <>
        {notice}
        <EmptyState title="No open invitations">
          Invitations you send appear here until they are accepted, revoked or expire.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {notice}
      <Table label="Open invitations">
        <thead>
          <tr>
            <Th>E-mail</Th>
            <Th className="hidden sm:table-cell">Role</Th>
            <Th className="hidden md:table-cell">Invited by</Th>
            <Th className="hidden sm:table-cell">Expires</Th>
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Tr key={row.id}>
              <Td>
                <span className="block max-w-[18rem] whitespace-normal break-all sm:min-w-[10rem]">{row.email}</span>
                {/* On a phone the role and the expiry go under the e-mail, so that the row fits its width. */}
                <span className="mt-1 block whitespace-normal text-xs text-slate-600 sm:hidden">
                  <Badge tone="info">{row.role}</Badge> · expires <DateTime value={row.expiresAt} />
                </span>
              </Td>
              <Td className="hidden sm:table-cell">
                <Badge tone="info">{row.role}</Badge>
              </Td>
              <Td className="hidden md:table-cell">
                <span className="block max-w-[16rem] whitespace-normal break-all">{row.invitedBy ?? '—'}</span>
              </Td>
              <Td className="hidden sm:table-cell">
                <DateTime value={row.expiresAt} />
              </Td>
              <Td className="text-right">
                <RevokeInvitation invitation={row} onOvertaken={setRefused} />
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

export function InvitationsPanel() {
  const { accounts = [], account } = usePortal();
  const myRole = (accounts.find((a) => a.current)?.role ?? 'viewer') as MemberRole;
  if (!can(myRole, 'members:manage')) {
    return (
      <Card>
        <CardTitle>Invitations</CardTitle>
        <p className="mt-1 text-sm text-slate-600">
          Owners and admins invite people to {account.name}. Your role here is {myRole}.
        </p>
      </Card>
    );
  }
  return (
    <div className="space-y-6" data-testid="invitations-panel">
      <Card>
        <CardTitle>Invite someone</CardTitle>
        <p className="mb-4 mt-1 text-sm text-slate-600">
          We e-mail them a link that works once, for 72 hours. Inviting the same e-mail again replaces the earlier link.
        </p>
        <InviteForm />
      </Card>
      <Card>
        <CardTitle>Open invitations</CardTitle>
        <div className="mt-3">
          <PendingInvitations />
        </div>
      </Card>
    </div>
  );
}
