import type { MemberRole } from '@/lib/generated/prisma/enums';

/** A member's roles, most powerful first (what each may do: lib/teams/permissions.ts, which re-exports this list). */
export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'operator', 'viewer'] as const satisfies readonly MemberRole[];
