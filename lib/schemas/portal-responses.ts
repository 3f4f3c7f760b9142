import { z } from 'zod';
import { API_SCOPES } from '@/lib/auth/scopes';
import { MEMBER_ROLES } from './member-roles';
import { PACKAGE_STATUSES } from './statuses';

// Answers of portal-api routes with no API operation behind them: the handler returns its schema's output type and
// the component reads the same type, so the two cannot drift. Types only; times are ISO 8601 text.

const isoTime = () => z.string().meta({ format: 'date-time' });
const ENVIRONMENTS = ['test', 'live'] as const;

// GET /portal-api/dashboard: 30 days of activity, packages by status, webhook success, recent items.
export const ZDashboardResponse = z.object({
  daily: z.array(z.object({ day: z.string(), packages: z.number().int(), manifests: z.number().int() })),
  totals: z.object({ packages: z.number().int(), manifests: z.number().int() }),
  webhooks: z.object({ attempts: z.number().int(), succeeded: z.number().int(), successRate: z.number().nullable() }),
  recent: z.array(
    z.object({
      kind: z.enum(['container_manifest', 'package']),
      id: z.string(),
      label: z.string(),
      detail: z.string(),
      createdAt: isoTime(),
    }),
  ),
  /** Packages of containers and daily manifests received in the window, by lifecycle status. */
  packagesByStatus: z.record(z.enum(PACKAGE_STATUSES), z.number().int()),
});

/** A failure streak is counted this far and no further: "100 or more failures in a row" says enough. */
export const WEBHOOK_FAILURE_STREAK_CAP = 100;

// GET /portal-api/webhooks/health: each endpoint's latest delivery attempt and its current run of failures.
export const ZWebhookHealthResponse = z.object({
  endpoints: z.array(
    z.object({
      endpointId: z.string(),
      lastAttemptAt: isoTime().nullable(),
      lastSuccess: z.boolean().nullable(),
      lastStatusCode: z.number().int().nullable(),
      lastError: z.string().nullable(),
      failureStreak: z.number().int(),
      failingSince: isoTime().nullable(),
    }),
  ),
});

// An API token as the tokens page lists it: never its hash.
export const ZApiTokenRow = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(ENVIRONMENTS),
  displayPrefix: z.string(),
  createdAt: isoTime(),
  lastUsedAt: isoTime().nullable(),
  revokedAt: isoTime().nullable(),
  /** null: full access (every scope, those added later included); else exactly these. */
  scopes: z.array(z.enum(API_SCOPES)).nullable(),
  /** The portal user who created it; null for `npm run token` and tokens from before this was recorded. */
  createdBy: z.object({ id: z.string(), email: z.string() }).nullable(),
});

export const ZApiTokenListResponse = z.object({ tokens: z.array(ZApiTokenRow) });

// POST /portal-api/tokens (201): the plain token, in this answer only.
export const ZCreatedApiTokenResponse = ZApiTokenRow.omit({ lastUsedAt: true, revokedAt: true }).extend({ token: z.string() });

// DELETE /portal-api/tokens/{id}: revoked (the row stays for the audit trail).
export const ZRevokedApiTokenResponse = z.object({ id: z.string(), revokedAt: isoTime().nullable() });

export const ZSessionResponse = z.object({
  user: z.object({ id: z.string(), email: z.string() }),
  account: z.object({ id: z.string(), name: z.string() }),
  /** The user's role in that account (lib/teams/permissions.ts). */
  role: z.enum(MEMBER_ROLES),
  environment: z.enum(ENVIRONMENTS),
});

export const ZSignOutResponse = z.object({ ok: z.literal(true) });

// POST /portal-api/auth/sign-up (202): "check your inbox", the same whether or not the e-mail has an account.
export const ZSignUpResponse = z.object({ ok: z.literal(true), message: z.string() });

// POST /portal-api/auth/forgot-password (202): the same answer whether or not the e-mail has an account.
export const ZForgotPasswordResponse = z.object({ ok: z.literal(true), message: z.string() });

// POST /portal-api/auth/reset-password and POST /portal-api/account/password: how many other sessions ended.
export const ZPasswordChangedResponse = z.object({ ok: z.literal(true), sessionsEnded: z.number().int() });

// GET /portal-api/account/sessions: the user's live sessions, newest first.
export const ZSessionRow = z.object({
  id: z.string(),
  createdAt: isoTime(),
  lastSeenAt: isoTime().nullable(),
  expiresAt: isoTime(),
  userAgent: z.string().nullable(),
  address: z.string().nullable(),
  current: z.boolean(),
});
export const ZSessionListResponse = z.object({ sessions: z.array(ZSessionRow) });

// DELETE /portal-api/account/sessions ("sign out everywhere") and DELETE /portal-api/account/sessions/{id}.
export const ZSessionsEndedResponse = z.object({ ok: z.literal(true), sessionsEnded: z.number().int(), signedOut: z.boolean() });

// An element of GET /portal-api/rate-cards: a card as the rating code reads it, decimals as text.
export const ZRateCardView = z.object({
  id: z.string(),
  service: z.string(),
  carrier: z.string(),
  active: z.boolean(),
  locationKind: z.enum(['zip', 'airport']),
  dimDivisor: z.string(),
  weightStepLb: z.string(),
  maxWeightLb: z.string(),
  zones: z.array(z.object({ zone: z.number().int(), maxMiles: z.number().nullable() })),
  weightBreaks: z.array(z.object({ maxLb: z.string(), prices: z.array(z.string()) })),
  surcharges: z.array(
    z.object({ code: z.string(), label: z.string(), kind: z.enum(['percent', 'flat', 'per_lb']), amount: z.string() }),
  ),
  deliveryDays: z.array(z.number().int()),
  // Versions (docs/decisions/money.md): packages are priced by the version in force on their ManifestDate.
  version: z.number().int(),
  effectiveFrom: z.string(),
  /** in_force: what quotes use now; scheduled: comes into force later; superseded: a later version is in force. */
  standing: z.enum(['in_force', 'scheduled', 'superseded', 'inactive']),
});

export const ZRateCardsResponse = z.object({ rateCards: z.array(ZRateCardView) });

// GET /portal-api/airports?q=: the rate calculator's airport search.
export const ZAirportsResponse = z.object({
  airports: z.array(z.object({ iata: z.string(), name: z.string(), city: z.string(), country: z.string() })),
});

// GET|PUT /portal-api/import-mapping: the remembered spreadsheet column → field mapping.
export const ZImportMappingResponse = z.object({ columns: z.record(z.string(), z.string()) });

// GET|PUT /portal-api/settings/close-out: the automatic close of daily manifests in the page's environment.
export const ZCloseOutSettingsResponse = z.object({ cutoff_hour: z.number().int().nullable(), time_zone: z.string() });

// POST /portal-api/manifests: the builder's submit, POST /wf/manifest's answer plus whether it was new (a retry
// of an identical body returns the original ManifestID with created: false).

// GET /portal-api/manifests/services: the options of the Manifests list's service filter. The manifests themselves
// answer in the API's shape (GET /manifests, lib/schemas/lifecycle.ts), through its operations.
export const ZManifestServicesResponse = z.object({
  /** Distinct services of the account's manifests in this environment (containers' and daily manifests'), in order. */
  services: z.array(z.string()),
});

// GET /portal-api/members: the account's members, owners first; `you` marks the caller's own membership.
export const ZMemberRow = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  joinedAt: isoTime(),
  /** API tokens they created in this account (both environments) that are not revoked. */
  liveTokens: z.number().int(),
  you: z.boolean(),
});
export const ZMemberListResponse = z.object({ members: z.array(ZMemberRow) });

// PATCH and DELETE /portal-api/members/{membershipId}: the member after the change (`role` null once removed).
export const ZMemberChangeResponse = z.object({
  id: z.string(),
  email: z.string(),
  previousRole: z.enum(MEMBER_ROLES),
  role: z.enum(MEMBER_ROLES).nullable(),
  left: z.boolean(),
  sessionsEnded: z.number().int(),
  tokensRevoked: z.number().int(),
  tokensKept: z.number().int(),
});

export type TDashboardResponse = z.output<typeof ZDashboardResponse>;
export type TWebhookHealthResponse = z.output<typeof ZWebhookHealthResponse>;
export type TApiTokenRow = z.output<typeof ZApiTokenRow>;
export type TApiTokenListResponse = z.output<typeof ZApiTokenListResponse>;
export type TCreatedApiTokenResponse = z.output<typeof ZCreatedApiTokenResponse>;
export type TRevokedApiTokenResponse = z.output<typeof ZRevokedApiTokenResponse>;
export type TSessionResponse = z.output<typeof ZSessionResponse>;
export type TSignOutResponse = z.output<typeof ZSignOutResponse>;
export type TSignUpResponse = z.output<typeof ZSignUpResponse>;
export type TForgotPasswordResponse = z.output<typeof ZForgotPasswordResponse>;
export type TPasswordChangedResponse = z.output<typeof ZPasswordChangedResponse>;
export type TSessionRow = z.output<typeof ZSessionRow>;
export type TSessionListResponse = z.output<typeof ZSessionListResponse>;
export type TSessionsEndedResponse = z.output<typeof ZSessionsEndedResponse>;
export type TRateCardView = z.output<typeof ZRateCardView>;
export type TRateCardsResponse = z.output<typeof ZRateCardsResponse>;
export type TAirportsResponse = z.output<typeof ZAirportsResponse>;
export type TImportMappingResponse = z.output<typeof ZImportMappingResponse>;
export type TCloseOutSettingsResponse = z.output<typeof ZCloseOutSettingsResponse>;
export type TManifestServicesResponse = z.output<typeof ZManifestServicesResponse>;
export type TMemberRow = z.output<typeof ZMemberRow>;
export type TMemberListResponse = z.output<typeof ZMemberListResponse>;
export type TMemberChangeResponse = z.output<typeof ZMemberChangeResponse>;
