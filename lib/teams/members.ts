import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgTransaction } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import type { MemberRole } from '@/lib/generated/prisma/enums';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { assertPermission } from './permissions';

// Every membership change goes through changeMember(): the one place that checks who may make it, keeps the account's
// last owner, and writes the audit row (docs/decisions/teams.md).
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
  /** Their unrevoked API tokens in this account: what removing them would revoke. */
  liveTokens: number;
}

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

export const TOKEN_POLICIES = ['revoke', 'keep'] as const;
export type TokenPolicy = (typeof TOKEN_POLICIES)[number];

export type MemberChange = { kind: 'role'; role: MemberRole } | { kind: 'remove'; tokens: TokenPolicy };

export interface MemberChangeResult {
  membershipId: string;
  userId: string;
  email: string;
  previousRole: MemberRole;
  role: MemberRole | null;
  left: boolean;
  sessionsEnded: number;
  tokensRevoked: number;
  tokensKept: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = (id: string) => new AppError('not_found', `This account has no member ${id.slice(0, 64)}.`);

// Leaving needs no permission; touching an owner needs `owners:manage`; the last owner is never demoted or removed (409).
// The account row's lock (FOR NO KEY UPDATE, which does not hold up inserts referencing it) is taken before the owners
// are counted, so two owners demoting each other at once leave one owner.
export async function changeMember(options: {
  actor: MemberActor;
  membershipId: string;
  change: MemberChange;
  origin: AuditOrigin;
}): Promise<MemberChangeResult> {
  const { actor, membershipId, change, origin } = options;
  if (!UUID.test(membershipId)) throw notFound(membershipId);
  const result = await pgTransaction(async (client) => {
    await execute(client, sql`SELECT 1 FROM accounts WHERE id = ${actor.accountId}::uuid FOR NO KEY UPDATE`);
    // The actor's role now, under the lock: a change that raced this request decides, not the session's role.
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
    // Their sessions acting for their other accounts are theirs to keep.
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
