import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS } from '@/lib/audit/actions';
import { oneOf, text } from './fields';
import { day, LIST_LIMIT_DEFAULT, limit, rangeInOrder } from './lifecycle';
import { cursor } from './list';
import { keysetList } from './list';

// The audit log: GET /portal-api/audit (a page) and GET /portal-api/audit/export (CSV of every filtered
// row). Owners and admins only (lib/teams/permissions.ts audit:read).

export const AUDIT_FILTER_PARAMETERS = ['action', 'actor', 'from', 'to'] as const;
export const AUDIT_LIST_PARAMETERS = ['limit', 'cursor', ...AUDIT_FILTER_PARAMETERS] as const;

const filters = {
  action: oneOf(AUDIT_ACTIONS).meta({ description: 'One action: `auth.sign_in`, `token.created`, …' }),
  actor: text({ max: 254 }).meta({ description: "The actor's e-mail (case-insensitive, exact)." }),
  from: day(),
  to: day(),
};

export const ZAuditQuery = z
  .strictObject({ limit, cursor, ...filters })
  .superRefine(rangeInOrder)
  .transform((q) => ({
    limit: q.limit ?? LIST_LIMIT_DEFAULT,
    cursor: q.cursor || undefined,
    action: q.action,
    actor: q.actor?.trim() || undefined,
    from: q.from,
    to: q.to,
  }));

export const ZAuditExportQuery = z
  .strictObject(filters)
  .superRefine(rangeInOrder)
  .transform((q) => ({ action: q.action, actor: q.actor?.trim() || undefined, from: q.from, to: q.to }));

export const ZAuditEvent = z.object({
  id: z.string(),
  object: z.literal('audit_event'),
  occurred_at: z.string().meta({ format: 'date-time' }),
  environment: z
    .enum(['test', 'live'])
    .nullable()
    .meta({ description: 'Null for an action of the account itself (a sign-in, a password).' }),
  action: z.string(),
  actor: z.object({
    kind: z.enum(AUDIT_ACTOR_KINDS),
    label: z.string().meta({ description: 'The e-mail, the token\'s name and prefix, or "system", as they were at the time.' }),
    user_id: z.string().nullable(),
    email: z.string().nullable(),
    token_id: z.string().nullable(),
  }),
  client_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()),
});

export const ZAuditEventList = keysetList(ZAuditEvent);

export type TAuditEvent = z.output<typeof ZAuditEvent>;
export type TAuditEventList = z.output<typeof ZAuditEventList>;
