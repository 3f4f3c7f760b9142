// The audit log's fixed list of actions (docs/decisions/audit.md). A row's `action` is always one of
// these; the Audit page's filter offers exactly these. Add an action here before recording it.
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.password_changed',
  'auth.password_reset',
  'auth.sessions_revoked',
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.revoked',
  'invitation.accepted',
  'token.created',
  'token.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.secret_rotated',
  'webhook.deleted',
  'manifest.cancelled',
  'manifest.closed',
  'package.cancelled',
  /** A package's house data (customs declaration, consignee) amended: lib/customs/amend-package.ts. */
  'package.amended',
  /** A return made by a recipient on the public tracking page (lib/returns/public-returns.ts). */
  'package.return_created',
  /** A held house offloaded from its container before departure: lib/customs/offload-package.ts. */
  'package.offloaded',
  /** A container's air cargo header amended before departure: lib/customs/amend-container.ts. */
  'container.amended',
  'settings.updated',
  /** A portal write in live that no action above names (lib/portal/route.ts liveWriteAudit). */
  'live.write',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an action names. */
export const AUDIT_TARGET_TYPES = [
  'user',
  'session',
  'member',
  'invitation',
  'api_token',
  'webhook_endpoint',
  'manifest',
  'package',
  'settings',
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_ACTOR_KINDS = ['user', 'api_token', 'system'] as const;

export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
