import 'server-only';
import type { ReactNode } from 'react';
import { getSession } from '@/lib/auth/session';
import { can, type Permission } from '@/lib/teams/permissions';
import { RoleCannot } from './role';

/**
 * A portal page that needs `permission` (server component): its content for a role that has it, else a page saying
 * what the role cannot do (never a crash, never a page of refused requests). The layout has already required a
 * session; getSession is cached per request.
 */
export async function RoleGate({
  permission,
  title,
  what,
  children,
}: {
  permission: Permission;
  title: string;
  what: string;
  children: ReactNode;
}) {
  const session = await getSession();
  if (session && can(session.role, permission)) return <>{children}</>;
  return <RoleCannot title={title} what={what} permission={permission} />;
}
