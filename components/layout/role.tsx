'use client';
import { EmptyState, PageHeader } from '@/components/ui';
import { PERMISSIONS, type Permission } from '@/lib/teams/permissions';
import { PortalLink, usePortal } from './portal-context';

// What the portal shows a role that lacks a permission (lib/teams/permissions.ts): a page it cannot use, and a note
// where a page's write controls are left out. The portal-api refuses the same requests whatever the page shows.

/** "it needs the webhooks:manage permission, which owner, admin and developer have". */
function needs(permission: Permission): string {
  const roles = [...PERMISSIONS[permission].roles];
  const last = roles.pop();
  return `it needs the ${permission} permission, which ${roles.length ? `${roles.join(', ')} and ${last}` : last} have`;
}

/** A page the signed-in role cannot use: said plainly, with a way on. `what` completes "Your role cannot …". */
export function RoleCannot({ title, what, permission }: { title: string; what: string; permission: Permission }) {
  const { role } = usePortal();
  return (
    <>
      <PageHeader title={title} />
      <div data-testid="role-cannot">
        <EmptyState
          title={`Your role (${role}) cannot ${what}`}
          action={
            <span className="flex flex-wrap justify-center gap-4">
              <PortalLink href="/members" className="font-medium text-brand-700 underline">
                See who can do what
              </PortalLink>
              <PortalLink href="/dashboard" className="font-medium text-brand-700 underline">
                Back to the dashboard
              </PortalLink>
            </span>
          }
        >
          This page is not available to you: {needs(permission)}. An owner or admin of the account can change your role.
        </EmptyState>
      </div>
    </>
  );
}

/** One line where a page leaves out write controls the role cannot use. `what` completes "Your role cannot …". */
export function RoleNote({ what, permission, className }: { what: string; permission: Permission; className?: string }) {
  const { role } = usePortal();
  return (
    <p data-testid="role-note" className={className ?? 'text-sm text-slate-600'}>
      Your role ({role}) cannot {what}: {needs(permission)}.
    </p>
  );
}

/** Its children only for a role with `permission` (a write button a role cannot use is left out). */
export function Can({ permission, children }: { permission: Permission; children: React.ReactNode }) {
  const { role } = usePortal();
  return PERMISSIONS[permission].roles.some((r) => r === role) ? <>{children}</> : null;
}
