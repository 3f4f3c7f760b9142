import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgTransaction } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import type { MemberRole } from '@/lib/generated/prisma/enums';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { assertPermission } from './permissions';

// An account's members (docs/decisions/teams.md): the list, a role change, a removal. Every change of a
// membership goes through changeMember() below: the one place that checks who may make it, keeps the account's
// last owner, and writes it (the audit log records it there).

/** Who is asking: the session's user, the account it acts for, and their role in it. */
export interface MemberActor {
  userId: string;
  accountId: string;
  role: MemberRole;
}

export interface MemberRow {
  id: string;
  userId: string;
  email: string;
  role: MemberRole;
  joinedAt: Date;
  /** Their API tokens in this account (both environments) that are not revoked: what removing them would revoke. */
  liveTokens: number;
}

/** The account's members, owners first, then by when they joined. */
export async function listMembers(accountId: string): Promise<MemberRow[]> {
  return pgTransaction((client) =>
    queryRows(
      client,
      sql<MemberRow>`
        SELECT m.id, m.user_id AS "userId", u.email, m.role, m.created_at AS "joinedAt",
               (SELECT count(*)::int FROM api_tokens t
                 WHERE t.account_id = m.account_id AND t.created_by_user_id = m.user_id AND t.revoked_at IS NULL) AS "liveTokens"
        FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = ${accountId}::uuid
        ORDER BY (m.role = 'owner') DESC, m.created_at, m.id`,
    ),
  );
}

/** A removal's API tokens: revoked (the default) or left working. */
export const TOKEN_POLICIES = ['revoke', 'keep'] as const;
export type TokenPolicy = (typeof TOKEN_POLICIES)[number];

export type MemberChange = { kind: 'role'; role: MemberRole } | { kind: 'remove'; tokens: TokenPolicy };

export interface MemberChangeResult {
  membershipId: string;
  userId: string;
  email: string;
  /** Before the change. */
  previousRole: MemberRole;
  /** After it; null once removed. */
  role: MemberRole | null;
  /** The member removed themselves. */
  left: boolean;
  /** Removal: their sessions acting for this account that ended, and their tokens revoked (0 when kept). */
  sessionsEnded: number;
  tokensRevoked: number;
  tokensKept: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = (id: string) => new AppError('not_found', `This account has no member ${id.slice(0, 64)}.`);

/**
 * Changes a member's role or removes them, as `actor` (the one function every membership change goes through):
 * - `members:manage` is needed, except to remove yourself (leave), which any member may;
 * - making, unmaking or removing an owner needs `owners:manage` (an admin cannot touch an owner);
 * - the account's last owner is never demoted or removed: 409 `conflict` naming `role`;
 * - a removal ends the member's sessions acting for this account at once, and revokes the API tokens they created
 *   in it (both environments) unless `tokens: 'keep'`.
 * A membership of another account, or an id that is none, is a 404. Concurrent changes are serialised per account by
 * a lock on the account's row (FOR NO KEY UPDATE: it does not hold up inserts that reference the account), taken
 * before the owners are counted, so two owners demoting each other at once leave one owner.
 */
export async function changeMember(options: {
  actor: MemberActor;
  membershipId: string;
  change: MemberChange;
  /** Who asked, from where: the audit log's row (lib/audit), written in this change's transaction. */
  origin: AuditOrigin;
}): Promise<MemberChangeResult> {
  const { actor, membershipId, change, origin } = options;
  if (!UUID.test(membershipId)) throw notFound(membershipId);
  const result = await pgTransaction(async (client) => {
    await execute(client, sql`SELECT 1 FROM accounts WHERE id = ${actor.accountId}::uuid FOR NO KEY UPDATE`);
    // The actor's role as it is now, under the lock: a change that raced this request (the actor demoted or removed
    // meanwhile) decides, not the role its session had when the request began.
    const current = await queryRow(
      client,
      sql<{
        role: MemberRole;
      }>`SELECT role FROM memberships WHERE account_id = ${actor.accountId}::uuid AND user_id = ${actor.userId}::uuid`,
    );
    if (!current) throw new AppError('unauthorized', 'You are no longer a member of this account. Sign in again.');
    const actorRole = current.role;
    const target = await queryRow(
      client,
      sql<{ userId: string; email: string; role: MemberRole }>`
        SELECT m.user_id AS "userId", u.email, m.role
        FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.id = ${membershipId}::uuid AND m.account_id = ${actor.accountId}::uuid`,
    );
    if (!target) throw notFound(membershipId);
    const self = target.userId === actor.userId;
    const leaving = change.kind === 'remove' && self;
    if (!leaving) assertPermission(actorRole, 'members:manage');
    const touchesOwner = target.role === 'owner' || (change.kind === 'role' && change.role === 'owner');
    if (touchesOwner && !leaving) assertPermission(actorRole, 'owners:manage');

    const base = { membershipId, userId: target.userId, email: target.email, previousRole: target.role, left: leaving };
    const none = { sessionsEnded: 0, tokensRevoked: 0, tokensKept: 0 };
    if (change.kind === 'role' && change.role === target.role) return { ...base, role: target.role, ...none };

    if (target.role === 'owner') {
      const owners = await queryRow(
        client,
        sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM memberships WHERE account_id = ${actor.accountId}::uuid AND role = 'owner'`,
      );
      if ((owners?.n ?? 0) <= 1) {
        const what = leaving ? 'leave the account' : change.kind === 'remove' ? 'be removed' : 'be demoted';
        throw new AppError(
          'conflict',
          `${target.email} is this account's last owner and cannot ${what}: make another member an owner first.`,
          {
            details: [{ path: 'role', message: 'the account must keep at least one owner' }],
          },
        );
      }
    }

    if (change.kind === 'role') {
      await execute(client, sql`UPDATE memberships SET role = ${change.role}::"MemberRole" WHERE id = ${membershipId}::uuid`);
      await recordAudit(
        origin,
        {
          accountId: actor.accountId,
          action: 'member.role_changed',
          target: { type: 'member', id: target.userId },
          details: { email: target.email, from: target.role, to: change.role },
        },
        client,
      );
      return { ...base, role: change.role, ...none };
    }

    await execute(client, sql`DELETE FROM memberships WHERE id = ${membershipId}::uuid`);
    // Their sessions acting for this account end now (getSession also refuses them, being no member any more);
    // sessions acting for their other accounts are theirs to keep.
    const sessionsEnded = await execute(
      client,
      sql`DELETE FROM sessions WHERE user_id = ${target.userId}::uuid AND account_id = ${actor.accountId}::uuid`,
    );
    const tokens = sql`account_id = ${actor.accountId}::uuid AND created_by_user_id = ${target.userId}::uuid AND revoked_at IS NULL`;
    let tokensRevoked = 0;
    let tokensKept = 0;
    if (change.tokens === 'revoke') {
      // The api_tokens trigger tells every instance to drop them from its token cache.
      tokensRevoked = await execute(client, sql`UPDATE api_tokens SET revoked_at = now() WHERE ${tokens}`);
    } else {
      tokensKept =
        (await queryRow(client, sql<{ n: number }>`SELECT count(*)::int AS n FROM api_tokens WHERE ${tokens}`))?.n ?? 0;
    }
    await recordAudit(
      origin,
      {
        accountId: actor.accountId,
        action: 'member.removed',
        target: { type: 'member', id: target.userId },
        // (keys naming tokens would be dropped by safeDetails as secret-looking: these name the counts, not a token)
        details: {
          email: target.email,
          role: target.role,
          left: leaving,
          sessionsEnded,
          apiCredentialsRevoked: tokensRevoked,
          apiCredentialsKept: tokensKept,
        },
      },
      client,
    );
    return { ...base, role: null, sessionsEnded, tokensRevoked, tokensKept };
  });
  return result;
}
