// Headers every API answer carries, errors and OPTIONS included: bodies may
// hold secrets (POST …/webhooks and rotate-secret show a signing secret once), so nothing may keep
// them, and no browser may guess another type than the JSON we declare.
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

/** Sent on answers to requests that arrived over TLS (lib/http/client-address.ts, arrivedOverTls). */
export const HSTS = 'max-age=31536000; includeSubDomains';
