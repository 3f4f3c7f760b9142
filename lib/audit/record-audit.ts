import 'server-only';
import { db, pgPool, type Prisma } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { execute, queryRow, sql, type Queryable } from '@/lib/sql';
import type { AuditAction, AuditTargetType } from './actions';

// The audit log (docs/decisions/audit.md): one INSERT per action, in the caller's transaction when it has one, so the
// action and its record commit together. The table's trigger refuses every update and delete.

/** Who did it: a signed-in user, an API token (the API's calls), or the service itself (a cut-off close, a CLI). */
export type AuditActor =
  { kind: 'user'; userId: string; email: string } | { kind: 'api_token'; tokenId: string } | { kind: 'system' };

/** Who, and from where: the address is the trusted client address (lib/http/request-client.ts), never a raw header. */
export interface AuditOrigin {
  actor: AuditActor;
  address: string | null;
  userAgent: string | null;
}

export const SYSTEM_ORIGIN: AuditOrigin = Object.freeze({
  actor: Object.freeze({ kind: 'system' as const }),
  address: null,
  userAgent: null,
});

/** A detail's value: short scalars, or a short list of strings. Never a secret (see `safeDetails`). */
export type AuditDetailValue = string | number | boolean | null | readonly string[];
export type AuditDetails = Record<string, AuditDetailValue>;

export interface AuditEntry {
  accountId: string;
  /** For an environment-scoped action (a token, a webhook, a manifest); omitted for the account's own. */
  environment?: Environment | null;
  action: AuditAction;
  target?: { type: AuditTargetType; id: string } | null;
  details?: AuditDetails;
}

/** Where the row is written: the caller's pg client or Prisma transaction; omitted, a statement of its own. */
export type AuditWriter = Queryable | Prisma.TransactionClient;

const USER_AGENT_MAX = 300;
const TEXT_MAX = 200;
const LIST_MAX = 20;
/** Keys that could only hold a secret; refused whatever their value. */
const SECRET_KEY = /secret|password|token|api[_-]?key|authorization|cookie|hash/i;
/** This service's own credentials (a token's 12-character display prefix is not one, and stays). */
const SECRET_VALUE = /\b(ck_(live|test|ops)_|whsec_)[A-Za-z0-9_+/=-]{16,}/g;

/** A copy of `details` fit for the log: secret-named keys dropped, tokens and signing secrets masked, values cut short. */
export function safeDetails(details: AuditDetails | undefined): Record<string, AuditDetailValue> {
  const out: Record<string, AuditDetailValue> = {};
  for (const [key, value] of Object.entries(details ?? {}).slice(0, 20)) {
    if (SECRET_KEY.test(key)) continue;
    if (typeof value === 'string') out[key] = cleanText(value);
    else if (Array.isArray(value))
      out[key] = (value as readonly string[]).slice(0, LIST_MAX).map((item) => cleanText(String(item)));
    else out[key] = value;
  }
  return out;
}

function cleanText(value: string, max = TEXT_MAX): string {
  // NUL cannot be stored in text or jsonb; other control characters have no place in a log line either.
  return value
    .replace(SECRET_VALUE, '[redacted]')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .slice(0, max);
}

const cleanAgent = (agent: string | null) => (agent ? cleanText(agent, USER_AGENT_MAX) : null);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ActorColumns {
  kind: 'user' | 'api_token' | 'system';
  userId: string | null;
  email: string | null;
  tokenId: string | null;
  label: string;
}

/** The actor's columns; a token's name and prefix are copied now (the token may be renamed or revoked later). */
async function actorColumns(actor: AuditActor, on: AuditWriter | undefined): Promise<ActorColumns> {
  if (actor.kind === 'user')
    return {
      kind: 'user',
      userId: actor.userId,
      email: actor.email.toLowerCase(),
      tokenId: null,
      label: actor.email.toLowerCase(),
    };
  if (actor.kind === 'system' || !UUID.test(actor.tokenId))
    return { kind: 'system', userId: null, email: null, tokenId: null, label: 'system' };
  const token =
    on && isPrisma(on)
      ? await on.apiToken.findUnique({ where: { id: actor.tokenId }, select: { name: true, displayPrefix: true } })
      : await queryRow(
          on ?? pgPool(),
          sql<{
            name: string;
            displayPrefix: string;
          }>`SELECT name, display_prefix AS "displayPrefix" FROM api_tokens WHERE id = ${actor.tokenId}::uuid`,
        );
  const label = token ? `${token.name || 'Unnamed token'} (${token.displayPrefix}…)` : `API token ${actor.tokenId}`;
  return { kind: 'api_token', userId: null, email: null, tokenId: actor.tokenId, label };
}

function isPrisma(on: AuditWriter): on is Prisma.TransactionClient {
  return typeof (on as Partial<Prisma.TransactionClient>).auditEvent === 'object';
}

/** Records one action. Pass the caller's transaction (`on`) whenever the action is written in one. */
export async function recordAudit(origin: AuditOrigin, entry: AuditEntry, on?: AuditWriter): Promise<void> {
  const actor = await actorColumns(origin.actor, on);
  const details = safeDetails(entry.details);
  if (on && isPrisma(on)) {
    await on.auditEvent.create({ data: prismaRow(origin, actor, entry.accountId, entry, details) });
    return;
  }
  await execute(
    on ?? pgPool(),
    sql`INSERT INTO audit_events (account_id, environment, actor_kind, actor_user_id, actor_email, actor_token_id, actor_label,
          client_address, user_agent, action, target_type, target_id, details)
        VALUES (${entry.accountId}::uuid, ${entry.environment ?? null}::"Environment", ${actor.kind}, ${actor.userId}::uuid, ${actor.email},
          ${actor.tokenId}::uuid, ${actor.label}, ${origin.address}, ${cleanAgent(origin.userAgent)}, ${entry.action},
          ${entry.target?.type ?? null}, ${entry.target ? cleanText(entry.target.id) : null}, ${JSON.stringify(details)}::jsonb)`,
  );
}

function prismaRow(
  origin: AuditOrigin,
  actor: ActorColumns,
  accountId: string,
  entry: Omit<AuditEntry, 'accountId'>,
  details: Record<string, AuditDetailValue>,
) {
  return {
    accountId,
    environment: entry.environment ?? null,
    actorKind: actor.kind,
    actorUserId: actor.userId,
    actorEmail: actor.email,
    actorTokenId: actor.tokenId,
    actorLabel: actor.label,
    clientAddress: origin.address,
    userAgent: cleanAgent(origin.userAgent),
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target ? cleanText(entry.target.id) : null,
    details: details as Prisma.InputJsonObject,
  };
}

/** A user's own action (a password change), in every account they belong to: each account's owners see it. */
export async function recordUserAudit(
  origin: AuditOrigin,
  entry: Omit<AuditEntry, 'accountId' | 'environment'> & { userId: string },
  on: Prisma.TransactionClient = db,
): Promise<void> {
  const actor = await actorColumns(origin.actor, on);
  const details = safeDetails(entry.details);
  const memberships = await on.membership.findMany({ where: { userId: entry.userId }, select: { accountId: true } });
  if (memberships.length === 0) return;
  await on.auditEvent.createMany({ data: memberships.map((m) => prismaRow(origin, actor, m.accountId, entry, details)) });
}

/** One statement whether or not the e-mail has a user: an unknown e-mail takes as long as a known one, and leaves no row. */
export async function recordFailedSignIn(options: { email: string; address: string; userAgent: string | null }): Promise<void> {
  const details = JSON.stringify(safeDetails({ reason: 'wrong_password' }));
  await execute(
    pgPool(),
    sql`INSERT INTO audit_events (account_id, actor_kind, actor_user_id, actor_email, actor_label, client_address, user_agent, action,
          target_type, target_id, details)
        SELECT m.account_id, 'user', u.id, lower(u.email), lower(u.email), ${options.address}, ${cleanAgent(options.userAgent)},
          'auth.sign_in_failed', 'user', u.id::text, ${details}::jsonb
        FROM users u JOIN memberships m ON m.user_id = u.id
        WHERE u.email = ${options.email}`,
  );
}
