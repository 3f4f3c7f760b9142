// Quote ids (docs/decisions/money.md): stateless and signed, so quoting writes nothing. An HMAC over what the quote was
// for, under a key derived from WEBHOOK_SECRETS_KEY; a valid id names its own account, so another's is recognised.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Environment } from '@/lib/generated/prisma/enums';
import { SERVICES, type ServiceName } from '@/lib/schemas/rate';

export const QUOTE_TTL_MS = 24 * 3_600_000;
const PREFIX = 'qt_';
const FORMAT = '1';
const MAC_BYTES = 16;
const TAG_BYTES = 9;

/** A derived key: quote ids never share a key with what WEBHOOK_SECRETS_KEY encrypts. */
export interface QuoteKey {
  mac: Buffer;
}

export function quoteKeyFrom(secret: Buffer | string): QuoteKey {
  const ikm = typeof secret === 'string' ? Buffer.from(secret.trim(), 'base64') : secret;
  return { mac: Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), 'carrier quote ids v1', 32)) };
}

export interface QuoteClaims {
  environment: Environment;
  service: ServiceName;
  cardVersion: number;
  amount: string;
  /** Normalised: pounds and inches as plain decimals (Fixed.toString()), lane codes upper-case. */
  weightLb: string;
  length: string;
  width: string;
  height: string;
  from: string;
  to: string;
  expiresAt: Date;
}

// An account's tag never changes under a key, and a quote answer needs it once per rate: remembered per key, at
// most TAGS_KEPT accounts (then forgotten all at once), it costs an HMAC per account instead of one per rate.
const TAGS_KEPT = 10_000;
const tagsByKey = new WeakMap<QuoteKey, Map<string, string>>();

export function accountTag(key: QuoteKey, accountId: string): string {
  let tags = tagsByKey.get(key);
  if (!tags) tagsByKey.set(key, (tags = new Map<string, string>()));
  let tag = tags.get(accountId);
  if (tag === undefined) {
    tag = createHmac('sha256', key.mac).update(`account:${accountId}`).digest().subarray(0, TAG_BYTES).toString('base64url');
    if (tags.size >= TAGS_KEPT) tags.clear();
    tags.set(accountId, tag);
  }
  return tag;
}

function mac(key: QuoteKey, payload: string): Buffer {
  return createHmac('sha256', key.mac).update(payload).digest().subarray(0, MAC_BYTES);
}

const ENV_CODE = { test: 't', live: 'l' } satisfies Record<Environment, string>;

export function issueQuoteId(key: QuoteKey, accountId: string, claims: QuoteClaims): string {
  const fields = [
    FORMAT,
    ENV_CODE[claims.environment],
    accountTag(key, accountId),
    Math.floor(claims.expiresAt.getTime() / 1000).toString(36),
    String(SERVICES.indexOf(claims.service)),
    String(claims.cardVersion),
    claims.amount,
    claims.weightLb,
    claims.length,
    claims.width,
    claims.height,
    claims.from,
    claims.to,
  ];
  const payload = Buffer.from(fields.join('|')).toString('base64url');
  return `${PREFIX}${payload}.${mac(key, payload).toString('base64url')}`;
}

export type QuoteReading =
  | { ok: true; claims: QuoteClaims }
  | { ok: false; reason: 'malformed' | 'forged' | 'other_account' | 'other_environment' | 'expired' };

const SHAPE = /^qt_([A-Za-z0-9_-]{1,600})\.([A-Za-z0-9_-]{22})$/;

/** The MAC is checked first (current key, then earlier ones), so every later reason is about a genuine quote. */
export function readQuoteId(
  keys: readonly QuoteKey[],
  id: string,
  who: { accountId: string; environment: Environment; now: Date },
): QuoteReading {
  const m = SHAPE.exec(id);
  if (!m) return { ok: false, reason: 'malformed' };
  const [, payload = '', given = ''] = m;
  const givenMac = Buffer.from(given, 'base64url');
  const key = keys.find((k) => givenMac.length === MAC_BYTES && timingSafeEqual(mac(k, payload), givenMac));
  if (!key) return { ok: false, reason: 'forged' };
  const f = Buffer.from(payload, 'base64url').toString('utf8').split('|');
  if (f.length !== 13 || f[0] !== FORMAT) return { ok: false, reason: 'malformed' };
  const [, env, tag, exp, svc, version, amount, weightLb, length, width, height, from, to] = f as string[] & { length: 13 };
  const environment = (Object.keys(ENV_CODE) as Environment[]).find((e) => ENV_CODE[e] === env);
  const service = SERVICES[Number(svc)];
  if (!environment || !service) return { ok: false, reason: 'malformed' };
  if (environment !== who.environment) return { ok: false, reason: 'other_environment' };
  if (tag !== accountTag(key, who.accountId)) return { ok: false, reason: 'other_account' };
  const expiresAt = new Date(parseInt(exp ?? '', 36) * 1000);
  if (!(expiresAt.getTime() > who.now.getTime())) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    claims: {
      environment,
      service,
      cardVersion: Number(version),
      amount: amount ?? '',
      weightLb: weightLb ?? '',
      length: length ?? '',
      width: width ?? '',
      height: height ?? '',
      from: from ?? '',
      to: to ?? '',
      expiresAt,
    },
  };
}
