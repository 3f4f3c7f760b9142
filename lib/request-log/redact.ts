// What the request log keeps of a body (issue 16): its first 16 KB, with secrets and tokens replaced, and
// nothing PostgreSQL cannot store. Pure, so it is unit-tested without a server (redact.test.ts).

/** Bytes of a body the log keeps (UTF-8). */
export const LOGGED_BODY_BYTES = 16 * 1024;

const REDACTED = '[redacted]';

/**
 * Token and secret shapes this service issues (`ck_live_…`, `ck_test_…`, `ck_ops_…`, `whsec_…`), wherever they
 * appear: in a JSON value, a header echoed back, or text that is not JSON at all.
 */
const ISSUED_SECRET = /\b(?:ck_(?:live|test|ops)_|whsec_)[A-Za-z0-9+/=_-]+/g;

/**
 * A JSON member whose name says it holds a secret, with its string value (to its closing quote, or to the end of a
 * cut-off text). Names are matched whole (`secret`, `previous_secret`, `password`, `api_key`, `authorization`…),
 * so `TrackingNumber` or `secret_expires_at` are kept.
 */
const SECRET_MEMBER =
  /("(?:[A-Za-z_]*_)?(?:secret|secrets|password|passwd|token|access_token|refresh_token|api_key|apikey|authorization|csrf_token)"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/gi;

/** A URL's user and password (`https://user:pass@host`): the password goes. */
const URL_PASSWORD = /(\/\/[^/\s:@"]+:)[^/\s@"]+@/g;

export interface LoggedBody {
  /** The body as the log keeps it; null when there was none. */
  text: string | null;
  /** The whole body's size in bytes. */
  bytes: number;
}

/**
 * The logged form of a body: secrets replaced, cut to LOGGED_BODY_BYTES on a character boundary, NUL (which a
 * PostgreSQL text cannot hold) written as \u0000. The redaction runs on a little more than what is kept, so a
 * secret across the cut is still recognised before it is cut.
 */
export function loggedBody(body: string | null | undefined): LoggedBody {
  if (body === undefined || body === null || body === '') return { text: null, bytes: 0 };
  const bytes = Buffer.byteLength(body);
  // Characters are at most 3 UTF-8 bytes in a JS string's UTF-16 (4 for a pair of 2 units), so this many
  // characters hold at least the kept bytes; 256 more let a secret across the cut be seen whole.
  const window = body.length > LOGGED_BODY_BYTES + 256 ? body.slice(0, LOGGED_BODY_BYTES + 256) : body;
  const redacted = window.replace(SECRET_MEMBER, `$1"${REDACTED}"`).replace(ISSUED_SECRET, REDACTED).replace(URL_PASSWORD, `$1${REDACTED}@`).replaceAll('\u0000', '\\u0000');
  return { text: cutToBytes(redacted, LOGGED_BODY_BYTES), bytes };
}

/** `text`'s longest prefix of at most `limit` UTF-8 bytes that ends on a whole character. */
export function cutToBytes(text: string, limit: number): string {
  if (text.length * 3 <= limit) return text;
  const encoded = Buffer.from(text);
  if (encoded.byteLength <= limit) return text;
  let end = limit;
  // Back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return encoded.subarray(0, end).toString('utf8');
}

/** A short header or path value: NUL escaped, at most `limit` characters. */
export function loggedText(value: string | null | undefined, limit = 1024): string | null {
  if (value === undefined || value === null) return null;
  return value.slice(0, limit).replaceAll('\u0000', '\\u0000').replace(ISSUED_SECRET, REDACTED).replace(URL_PASSWORD, `$1${REDACTED}@`);
}
