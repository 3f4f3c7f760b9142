import type { MemberRole } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { MEMBER_ROLES } from '@/lib/schemas/member-roles';

// Who may do what in an account (docs/decisions/teams.md): the one table. Every portal-api route names
// the permission it needs (lib/portal/route.ts checks it against the session's role); the Members page shows this
// table as it is; the access-matrix suites test every route for every role from it.

export { MEMBER_ROLES };

export const PERMISSIONS = {
  /** Read the account's data: dashboard, manifests, packages, documents, exports, rate cards, members. */
  'data:read': {
    label: 'Read manifests, packages, documents and the dashboard',
    roles: ['owner', 'admin', 'developer', 'operator', 'viewer'],
  },
  /** Quote rates (writes nothing). */
  'rates:quote': { label: 'Calculate rates', roles: ['owner', 'admin', 'developer', 'operator', 'viewer'] },
  /** Create, cancel and close manifests and packages; import mappings. */
  'shipments:write': {
    label: 'Create, cancel and close manifests and packages',
    roles: ['owner', 'admin', 'developer', 'operator'],
  },
  /** The request log (both bodies). */
  'logs:read': { label: 'Read the request log', roles: ['owner', 'admin', 'developer', 'operator'] },
  /** API tokens: list, create, revoke. */
  'tokens:manage': { label: 'Create and revoke API tokens', roles: ['owner', 'admin', 'developer'] },
  /** Webhook endpoints: create, change, rotate, delete, redeliver. */
  'webhooks:manage': { label: 'Manage webhook endpoints', roles: ['owner', 'admin', 'developer'] },
  /** Account settings (close-out times). */
  'settings:manage': { label: 'Change account settings', roles: ['owner', 'admin'] },
  /** Invite, remove and change the roles of members other than owners. */
  'members:manage': { label: 'Invite and remove members, change roles', roles: ['owner', 'admin'] },
  /** Make or unmake owners. */
  'owners:manage': { label: 'Make and remove owners', roles: ['owner'] },
  /** The audit log. */
  'audit:read': { label: 'Read the audit log', roles: ['owner', 'admin'] },
} as const satisfies Record<string, { label: string; roles: readonly MemberRole[] }>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * What a portal-api route needs (lib/portal/route.ts): a permission, or `'self'` for the signed-in user's own things
 * (their session, password and sessions), which any member of the account may use whatever their role.
 */
export type RouteAccess = Permission | 'self';

/** Every permission, in the table's order (the Members page's matrix, the access-matrix suites). */
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function can(role: MemberRole, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly MemberRole[]).includes(role);
}

/** 403 `forbidden` naming the permission and who has it, for a role without it. */
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
