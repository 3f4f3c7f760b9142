import type { MemberRole } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { MEMBER_ROLES } from '@/lib/schemas/member-roles';

// The one table of who may do what (docs/decisions/teams.md): every portal-api route names its permission, and the
// Members page and the access-matrix suites read it as it is.

export { MEMBER_ROLES };

export const PERMISSIONS = {
  'data:read': {
    label: 'Read manifests, packages, documents and the dashboard',
    roles: ['owner', 'admin', 'developer', 'operator', 'viewer'],
  },
  'rates:quote': { label: 'Calculate rates', roles: ['owner', 'admin', 'developer', 'operator', 'viewer'] },
  'shipments:write': {
    label: 'Create, cancel and close manifests and packages',
    roles: ['owner', 'admin', 'developer', 'operator'],
  },
  'logs:read': { label: 'Read the request log', roles: ['owner', 'admin', 'developer', 'operator'] },
  'tokens:manage': { label: 'Create and revoke API tokens', roles: ['owner', 'admin', 'developer'] },
  'webhooks:manage': { label: 'Manage webhook endpoints', roles: ['owner', 'admin', 'developer'] },
  'settings:manage': { label: 'Change account settings', roles: ['owner', 'admin'] },
  'members:manage': { label: 'Invite and remove members, change roles', roles: ['owner', 'admin'] },
  'owners:manage': { label: 'Make and remove owners', roles: ['owner'] },
  'audit:read': { label: 'Read the audit log', roles: ['owner', 'admin'] },
  // What the account owes is the owners' and admins' business (there is no finance role): the others neither see the
  // Billing page nor read invoices through the portal.
  'billing:read': { label: 'Read invoices and the running total', roles: ['owner', 'admin'] },
  'billing:manage': { label: 'Change the billing period, close a test period', roles: ['owner', 'admin'] },
} as const satisfies Record<string, { label: string; roles: readonly MemberRole[] }>;

export type Permission = keyof typeof PERMISSIONS;

// `'self'`: the user's own session, password and sessions, which any member may use whatever their role.
export type RouteAccess = Permission | 'self';

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function can(role: MemberRole, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly MemberRole[]).includes(role);
}

export function assertPermission(role: MemberRole, permission: Permission): void {
  if (can(role, permission)) return;
  const roles = PERMISSIONS[permission].roles.join(', ');
  throw new AppError(
    'forbidden',
    `Your role (${role}) cannot do this: it needs the ${permission} permission, which ${roles} have.`,
    {
      details: [{ path: 'permission', message: permission }],
    },
  );
}
