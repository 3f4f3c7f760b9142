// What the request log keeps of a body (issue 16): its first 16 KB, with secrets and tokens replaced, and
// nothing PostgreSQL cannot store. Pure, so it is unit-tested without a server (redact.test.ts).

/** Bytes of a body the log keeps (UTF-8). */
export const LOGGED_BODY_BYTES = 16 * 1024;

const REDACTED = '[redacted]';

/**
 * Token and secret shapes this service issues (`ck_live_…`, `ck_test_…`, `ck_ops_…`, `whsec_…`), wherever they
 * appear: in a JSON value, a header echoed back, text that is not JSON at all, glued to what comes before.
 */
const ISSUED_SECRET = /(?:ck_(?:live|test|ops)_|whsec_)[A-Za-z0-9+/=_-]+/g;

/**
 * A JSON member whose name ends in a secret's name, in any case and spelling (`secret`, `clientSecret`,
 * `previous_secret`, `newPassword`, `accessToken`, `x-api-key`, `private_key`, `authorization`…), with its value: a
 * string to its closing quote (or to the end of a cut-off text), or a bare word in text that is not quite JSON.
 * Names must end so, so `TrackingNumber` or `secret_expires_at` are kept. A name starts after a character no name
 * has (the look-behind): without it every position of a long run of letters would start a match (quadratic).
 */
const SECRET_MEMBER =
  /(["']?(?<![A-Za-z0-9_-])[A-Za-z0-9_-]*?(?:secret|secrets|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|secret[_-]?key|authorization|credentials?)["']?\s*:\s*)(?:"(?:[^"\\]|\\.)*(?:"|$)|'(?:[^'\\]|\\.)*(?:'|$)|[^\s,}\]"']+)/gi;

/** A URL's password (`https://user:pass@host`, `https:\/\/user:pass@host`, `https://:pass@host`): it goes. */
const URL_PASSWORD = /(\/\/|\\\/\\\/)([^/\\\s:@"]*:)[^/\\\s@"]+@/g;

/** Marks, inside the text being redacted, where the kept part ends; a private-use character, taken out of the input first. */
const CUT = '\uE000';

export interface LoggedBody {
  /** The body as the log keeps it; null when there was none. */
  text: string | null;
  /** The whole body's size in bytes. */
  bytes: number;
}

/** A replacement that keeps the cut mark when the replaced text held it, so the cut still falls where it was. */
const keepingCut = (replacement: (match: string, ...groups: string[]) => string) => (match: string, ...groups: string[]) =>
  replacement(match, ...groups) + (match.includes(CUT) ? CUT : '');

/**
 * What every secret above holds somewhere: text without any of these has nothing to replace, and most bodies (a rate
 * request, a package) have none, so one scan spares them the three.
 */
const MAYBE_SECRET = /ck_|whsec_|secret|passw|passphrase|token|key|authori|credential|\/\/|\\\//i;

/** Replaces every secret in `text` (see the patterns above). */
function redact(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  return text
    .replace(SECRET_MEMBER, keepingCut((_m, name) => `${name}"${REDACTED}"`))
    .replace(ISSUED_SECRET, REDACTED)
    .replace(URL_PASSWORD, keepingCut((_m, slashes, user) => `${slashes}${user}${REDACTED}@`));
}

/**
 * The logged form of a body: secrets replaced, cut to LOGGED_BODY_BYTES on a character boundary, NUL (which a
 * PostgreSQL text cannot hold) written as \u0000. The redaction runs on 256 characters more than are kept, so a
 * secret across the cut is seen whole; a mark at the cut keeps the text after it out, however much the
 * replacements shortened what came before.
 */
export function loggedBody(body: string | null | undefined): LoggedBody {
  if (body === undefined || body === null || body === '') return { text: null, bytes: 0 };
  const bytes = Buffer.byteLength(body);
  // At most LOGGED_BODY_BYTES characters hold the kept bytes; 256 more let a secret across the cut be seen whole.
  const window = (body.length > LOGGED_BODY_BYTES + 256 ? body.slice(0, LOGGED_BODY_BYTES + 256) : body).replaceAll(CUT, '\uFFFD');
  const kept = cutToBytes(window, LOGGED_BODY_BYTES).length;
  const marked = kept < window.length ? `${window.slice(0, kept)}${CUT}${window.slice(kept)}` : window;
  const redacted = redact(marked);
  const mark = redacted.indexOf(CUT);
  const text = (mark < 0 ? redacted : redacted.slice(0, mark)).replaceAll('\u0000', '\\u0000');
  return { text: cutToBytes(text, LOGGED_BODY_BYTES), bytes };
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
  return redact(value.slice(0, limit).replaceAll(CUT, '\uFFFD')).replaceAll('\u0000', '\\u0000');
}
