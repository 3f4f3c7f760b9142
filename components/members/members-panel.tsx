'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { usePortal, usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Badge,
  Button,
  Card,
  CardTitle,
  ConfirmDialog,
  ErrorState,
  ListTable,
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
import type { TMemberChangeResponse, TMemberListResponse, TMemberRow } from '@/lib/schemas/portal-responses';
import { can, MEMBER_ROLES, PERMISSION_NAMES, PERMISSIONS } from '@/lib/teams/permissions';

// The Members page: who is in the account and with which role, role changes and removals for those who may make
// them (lib/teams/members.ts decides again), and the permission table as it is (lib/teams/permissions.ts).

const ROLE_TEXT: Record<MemberRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  operator: 'Operator',
  viewer: 'Viewer',
};

/** Whether the signed-in role may change or remove `member` at all (the server decides the rest, last owner included). */
function mayManage(role: MemberRole, member: TMemberRow): boolean {
  if (!can(role, 'members:manage')) return false;
  return member.role !== 'owner' || can(role, 'owners:manage');
}

/** Owner and Admin manage the team (and an Owner the account): asked for with more than one click. */
const WEIGHTY_ROLES: readonly MemberRole[] = ['owner', 'admin'];

/**
 * A role is chosen, then changed by "Change role" and a confirmation: the select alone changes nothing (an arrow key
 * on a focused select must not save). The outcome is said in the row's status line; focus returns to the select.
 */
function RoleCell({ member }: { member: TMemberRow }) {
  const { role } = usePortal();
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const selectRef = useRef<HTMLSelectElement>(null);
  const [choice, setChoice] = useState<MemberRole>(member.role);
  const [confirming, setConfirming] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const [status, setStatus] = useState('');
  // The role as last read: when a refetch brings another (changed elsewhere), the select follows it.
  const [seenRole, setSeenRole] = useState<MemberRole>(member.role);
  if (member.role !== seenRole) {
    setSeenRole(member.role);
    setChoice(member.role);
  }
  const change = useMutation({
    mutationFn: (next: MemberRole) =>
      portal.fetch<TMemberChangeResponse>(`/portal-api/members/${encodeURIComponent(member.id)}`, {
        method: 'PATCH',
        body: { role: next },
      }),
    onSuccess: (_answer, next) => {
      setConfirming(false);
      setStatus(`${member.email} is now ${ROLE_TEXT[next].toLowerCase()} (was ${ROLE_TEXT[member.role].toLowerCase()}).`);
      setRefocus((n) => n + 1);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: portal.key('members') }),
  });
  // Back to the select once the dialog has closed (it hands focus to "Change role", which then goes) and the select is
  // enabled again: the row's control keeps the keyboard, not <body>.
  const [refocus, setRefocus] = useState(0);
  const pending = change.isPending;
  useEffect(() => {
    if (refocus && !confirming && !pending) selectRef.current?.focus();
  }, [refocus, confirming, pending]);
  if (!mayManage(role, member)) {
    return <Badge tone={member.role === 'owner' ? 'info' : 'neutral'}>{ROLE_TEXT[member.role]}</Badge>;
  }
  const ownersToo = can(role, 'owners:manage');
  const weighty = WEIGHTY_ROLES.includes(choice);
  const close = () => {
    setConfirming(false);
    if (change.isError) setChoice(member.role);
    setRefocus((n) => n + 1);
  };
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <Select
          ref={selectRef}
          aria-label={`Role of ${member.email}`}
          value={choice}
          disabled={change.isPending}
          onChange={(event) => {
            setChoice(event.target.value as MemberRole);
            setStatus('');
          }}
          className="w-auto min-w-[9rem]"
        >
          {MEMBER_ROLES.map((r) => (
            <option key={r} value={r} disabled={r === 'owner' && !ownersToo}>
              {ROLE_TEXT[r]}
            </option>
          ))}
        </Select>
        {choice === member.role ? null : (
          <Button
            size="sm"
            aria-label={`Change role of ${member.email}`}
            onClick={() => {
              change.reset();
              setUnderstood(false);
              setConfirming(true);
            }}
          >
            Change role
          </Button>
        )}
      </div>
      <p role="status" className="max-w-xs whitespace-normal text-sm text-green-800">
        {status}
      </p>
      <ConfirmDialog
        open={confirming}
        title={`Make ${member.email} ${ROLE_TEXT[choice].toLowerCase()}?`}
        confirmLabel={`Yes, make ${ROLE_TEXT[choice].toLowerCase()}`}
        cancelLabel="Cancel"
        busy={change.isPending}
        confirmDisabled={weighty && !understood}
        error={
          change.isError ? (
            <>
              {change.error.message}
              <RequestLink error={change.error} />
            </>
          ) : undefined
        }
        onConfirm={() => change.mutate(choice)}
        onClose={close}
      >
        <p>
          From {ROLE_TEXT[member.role].toLowerCase()} to <strong>{ROLE_TEXT[choice].toLowerCase()}</strong>, in test and live
          alike, from their next request on.
        </p>
        {weighty ? (
          <>
            <p className="mt-2 font-medium text-red-800">
              {choice === 'owner'
                ? 'An owner has every permission: they can make and remove owners, change any role (yours too) and remove anyone.'
                : 'An admin runs the team and the account: invites and removes members, changes roles, changes settings and manages tokens and webhooks.'}
            </p>
            <label className="mt-3 flex items-start gap-2">
              <input
                type="checkbox"
                checked={understood}
                onChange={(event) => setUnderstood(event.target.checked)}
                className="mt-1 h-4 w-4 shrink-0"
              />
              <span>I understand that {member.email} gets these permissions.</span>
            </label>
          </>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

function RemoveButton({ member }: { member: TMemberRow }) {
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [keepTokens, setKeepTokens] = useState(false);
  const leaving = member.you;
  const remove = useMutation({
    mutationFn: () =>
      portal.fetch<TMemberChangeResponse>(`/portal-api/members/${encodeURIComponent(member.id)}`, {
        method: 'DELETE',
        body: { tokens: keepTokens ? 'keep' : 'revoke' },
      }),
    onSuccess: (result) => {
      setOpen(false);
      if (result.left) {
        // This session acted for the account just left: it is over.
        router.replace('/sign-in');
        router.refresh();
        return;
      }
      void queryClient.invalidateQueries({ queryKey: portal.key('members') });
      void queryClient.invalidateQueries({ queryKey: portal.key('tokens') });
    },
  });
  const tokens = member.liveTokens;
  return (
    <>
      <button
        type="button"
        className="text-sm font-medium text-red-700 underline hover:text-red-900"
        onClick={() => {
          remove.reset();
          setKeepTokens(false);
          setOpen(true);
        }}
        aria-label={leaving ? 'Leave this account' : `Remove ${member.email}`}
      >
        {leaving ? 'Leave' : 'Remove'}
      </button>
      <ConfirmDialog
        open={open}
        title={leaving ? 'Leave this account?' : `Remove ${member.email}?`}
        confirmLabel={leaving ? 'Yes, leave' : 'Yes, remove'}
        cancelLabel="Cancel"
        busy={remove.isPending}
        error={
          remove.isError ? (
            <>
              {remove.error.message}
              <RequestLink error={remove.error} />
            </>
          ) : undefined
        }
        onConfirm={() => remove.mutate()}
        onClose={() => setOpen(false)}
      >
        <p>
          {leaving
            ? 'You lose access to this account at once, and are signed out of it; an owner or admin can invite you again.'
            : 'They lose access at once: their sessions in this account end now.'}
        </p>
        {tokens > 0 ? (
          <fieldset className="mt-3 space-y-1">
            <legend className="font-medium text-slate-900">
              {leaving ? 'You' : 'They'} created {tokens} API token{tokens === 1 ? '' : 's'} in this account that still work
              {tokens === 1 ? 's' : ''}.
            </legend>
            <label className="flex items-start gap-2">
              <input type="radio" name="tokens" checked={!keepTokens} onChange={() => setKeepTokens(false)} className="mt-1" />
              <span>
                Revoke {tokens === 1 ? 'it' : 'them'} (recommended): integrations using {tokens === 1 ? 'it' : 'them'} stop.
              </span>
            </label>
            <label className="flex items-start gap-2">
              <input type="radio" name="tokens" checked={keepTokens} onChange={() => setKeepTokens(true)} className="mt-1" />
              <span>
                Keep {tokens === 1 ? 'it' : 'them'} working: {tokens === 1 ? 'it belongs' : 'they belong'} to the account, not the
                person.
              </span>
            </label>
          </fieldset>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

function MembersTable({ members }: { members: TMemberRow[] }) {
  const { role } = usePortal();
  return (
    <ListTable
      label="Member list"
      head={
        <>
          <Th>E-mail</Th>
          <Th>Role</Th>
          <Th>Joined</Th>
          <Th>API tokens</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </>
      }
    >
      {members.map((member) => (
        <Tr key={member.id} data-testid="member-row">
          <Td data-label="E-mail" className="whitespace-normal break-all">
            {member.email}
            {member.you ? (
              <span className="ml-2 inline-block whitespace-nowrap">
                <Badge tone="neutral">you</Badge>
              </span>
            ) : null}
          </Td>
          <Td data-label="Role">
            <RoleCell member={member} />
          </Td>
          <Td data-label="Joined">
            <DateTime value={member.joinedAt} />
          </Td>
          <Td data-label="API tokens">{member.liveTokens}</Td>
          <Td data-label="Actions">{member.you || mayManage(role, member) ? <RemoveButton member={member} /> : null}</Td>
        </Tr>
      ))}
    </ListTable>
  );
}

/** Who can do what: the one table (lib/teams/permissions.ts), role by permission; the viewer's own role marked. */
export function PermissionMatrix() {
  const { role } = usePortal();
  return (
    <Card>
      <CardTitle>Who can do what</CardTitle>
      <p className="mb-3 mt-1 text-sm text-slate-600">
        The permissions each role has, in test and live alike. Your role is <strong>{ROLE_TEXT[role].toLowerCase()}</strong>.
      </p>
      {/* A phone gets each permission with the roles that have it; wider screens the role × permission grid. */}
      <ul className="divide-y divide-slate-100 sm:hidden" aria-label="Permissions by role">
        {PERMISSION_NAMES.map((permission) => (
          <li key={permission} className="py-2">
            <span className="block text-sm text-slate-900">{PERMISSIONS[permission].label}</span>
            <code className="text-xs text-slate-500">{permission}</code>
            <span className="mt-1 flex flex-wrap gap-1">
              {MEMBER_ROLES.filter((r) => can(r, permission)).map((r) => (
                <Badge key={r} tone={r === role ? 'info' : 'neutral'}>
                  {ROLE_TEXT[r]}
                </Badge>
              ))}
            </span>
          </li>
        ))}
      </ul>
      <div className="hidden sm:block" data-testid="permission-matrix">
        <Table label="Permissions by role">
          <thead className="bg-slate-50">
            <tr>
              <Th>Permission</Th>
              {MEMBER_ROLES.map((r) => (
                <Th key={r} className={r === role ? 'bg-brand-50 text-center text-brand-700' : 'text-center'}>
                  {ROLE_TEXT[r]}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PERMISSION_NAMES.map((permission) => (
              <Tr key={permission}>
                <Td className="whitespace-normal">
                  <span className="block text-slate-900">{PERMISSIONS[permission].label}</span>
                  <code className="text-xs text-slate-500">{permission}</code>
                </Td>
                {MEMBER_ROLES.map((r) => (
                  <Td key={r} className={r === role ? 'bg-brand-50 text-center' : 'text-center'}>
                    {can(r, permission) ? (
                      <span aria-label="yes" className="text-green-700">
                        ✓
                      </span>
                    ) : (
                      <span aria-label="no" className="text-slate-400">
                        –
                      </span>
                    )}
                  </Td>
                ))}
              </Tr>
            ))}
          </tbody>
        </Table>
      </div>
    </Card>
  );
}

export function MembersPanel() {
  const portal = usePortalEnvironment();
  const { role } = usePortal();
  const members = useQuery({
    queryKey: portal.key('members'),
    queryFn: ({ signal }) => portal.fetch<TMemberListResponse>('/portal-api/members', { signal }),
  });
  return (
    <div className="space-y-6">
      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="text-base font-semibold text-slate-900">
          Members
        </h2>
        {can(role, 'members:manage') ? null : (
          <p className="text-sm text-slate-600">
            Your role ({role}) cannot change roles or remove members: that needs the members:manage permission, which owner and
            admin have. You can leave the account.
          </p>
        )}
        {members.isPending ? (
          <LoadingBlock label="Loading members…" />
        ) : members.isError ? (
          <ErrorState title="Could not load members" error={members.error} onRetry={() => void members.refetch()} />
        ) : (
          <MembersTable members={members.data.members} />
        )}
      </section>
      <PermissionMatrix />
    </div>
  );
}
