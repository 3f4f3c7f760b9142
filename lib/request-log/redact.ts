// What the request log keeps of a body: its first 16 KB, with secrets and tokens replaced, and
// nothing PostgreSQL cannot store. Pure, so it is unit-tested without a server (redact.test.ts).

/** Bytes of a body the log keeps (UTF-8). */
export const LOGGED_BODY_BYTES = 16 * 1024;

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/**
 * Token and secret shapes this service issues (`ck_live_…`, `ck_test_…`, `ck_ops_…`, `whsec_…`), wherever they
 * appear: in a JSON value, a header echoed back, text that is not JSON at all, glued to what comes before. A `/`
 * of the random part may be JSON-escaped (`\/`).
 */
const ISSUED_SECRET = /(?:ck_(?:live|test|ops)_|whsec_)(?:[A-Za-z0-9+/=_-]|\\\/)+/g;

/**
 * The one list of secret names: a member or parameter whose name ends in one of these, in any case and spelling
 * (`secret`, `clientSecret`, `previous_secret`, `newPassword`, `accessToken`, `x-api-key`, `private_key`,
 * `authorization`…), holds a secret. Names must end so, so `TrackingNumber` or `secret_expires_at` are kept. A name
 * starts after a character no name has (the look-behind): without it every position of a long run of letters would
 * start a match (quadratic).
 */
const SECRET_NAME = String.raw`(?<![A-Za-z0-9_-])[A-Za-z0-9_-]*?(?:secret|secrets|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|secret[_-]?key|authorization|credentials?)`;

/**
 * A member or parameter so named, with its value. After `name:` (JSON, quoted or not) the value is a string to its
 * closing quote (or to the end of a cut-off text), or a bare word in text that is not quite JSON. After `name=` (a
 * query or form: `password=…`, `user[password]=…`, `user%5Bpassword%5D=…`) it is `paramValue`. One pattern for both,
 * so a body's names are scanned once.
 */
const secretNamed = (paramValue: string) =>
  new RegExp(
    String.raw`(["']?${SECRET_NAME})(?:(["']?\s*:\s*)(?:"(?:[^"\\]|\\.)*(?:"|$)|'(?:[^'\\]|\\.)*(?:'|$)|[^\s,}\]"']+)|((?:\]|%5[Dd])?=)${paramValue})`,
    'gi',
  );
/** In a query or a form, a parameter's value runs to the next `&`. */
const SECRET_IN_FORM = secretNamed(String.raw`[^&\r\n]+`);
/** In other text (JSON, where a URL's query sits in a string; a path; a header), also to a quote or a space. */
const SECRET_IN_TEXT = secretNamed(String.raw`(?:[^&\s"\\]|\\.)+`);

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

/**
 * What every secret above holds somewhere: text without any of these has nothing to replace, and most bodies (a rate
 * request, a package) have none, so one scan spares them the rest.
 */
const MAYBE_SECRET = /ck_|whsec_|secret|passw|passphrase|token|key|authori|credential|\/\/|\\\//i;

/** A part of the text to replace: [start, end) and what goes there. */
interface Span {
  start: number;
  end: number;
  text: string;
}

/** Where the patterns above find secrets in `text`, `named` being SECRET_IN_FORM or SECRET_IN_TEXT. */
function secretSpans(text: string, named: RegExp): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(named)) {
    // A JSON member's value is replaced by a JSON string; a parameter's by the marker alone.
    const [separator, marker] = m[2] === undefined ? [m[3]!, REDACTED] : [m[2], `"${REDACTED}"`];
    spans.push({ start: m.index + m[1]!.length + separator.length, end: m.index + m[0].length, text: marker });
  }
  for (const m of text.matchAll(ISSUED_SECRET)) spans.push({ start: m.index, end: m.index + m[0].length, text: REDACTED });
  for (const m of text.matchAll(URL_PASSWORD))
    spans.push({ start: m.index + m[1]!.length + m[2]!.length, end: m.index + m[0].length - 1, text: REDACTED });
  return spans;
}

/**
 * `text` with the spans replaced; overlapping spans are one (the first's replacement covers them all). A span that
 * held the cut mark keeps it, so the cut still falls where it was.
 */
function replaced(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let done = 0;
  for (let i = 0; i < spans.length;) {
    const { start, text: replacement } = spans[i]!;
    let end = spans[i]!.end;
    for (i++; i < spans.length && spans[i]!.start < end; i++) end = Math.max(end, spans[i]!.end);
    out += text.slice(done, start) + replacement + (text.slice(start, end).includes(CUT) ? CUT : '');
    done = end;
  }
  return out + text.slice(done);
}

/**
 * JSON's \uXXXX escape. A backslash and the character after it are one unit, so `\\u0077` (an escaped backslash,
 * then `u0077`) is not an escape.
 */
const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})|\\[^]/g;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;
/** What a percent-escape is decoded to: the characters of secret names and of tokens, never a delimiter such as `&`. */
const PERCENT_DECODED = /^[A-Za-z0-9._~+/=-]$/;
/** What a \uXXXX is decoded to: printable ASCII but the quotes and the backslash, which would end or escape a string. */
const JSON_DECODED = /^(?!["'\\])[\x21-\x7e]$/;

/**
 * `text` with one kind of escape decoded, and where each of its characters came from in `text` (`from`, one more
 * entry than characters); null when there was nothing to decode.
 */
function decoded(text: string, escape: RegExp, decodes: RegExp): { view: string; from: Int32Array } | null {
  let from: Int32Array | undefined;
  let view = '';
  let length = 0;
  let copied = 0;
  for (const m of text.matchAll(escape)) {
    if (m[1] === undefined) continue;
    const char = String.fromCharCode(parseInt(m[1], 16));
    if (!decodes.test(char)) continue;
    from ??= new Int32Array(text.length + 1);
    for (let i = copied; i < m.index; i++) from[length++] = i;
    from[length++] = m.index;
    view += text.slice(copied, m.index) + char;
    copied = m.index + m[0].length;
  }
  if (!from) return null;
  for (let i = copied; i < text.length; i++) from[length++] = i;
  from[length] = text.length;
  return { view: view + text.slice(copied), from };
}

/**
 * `text` as it means, for finding secrets (what is stored keeps its escapes): JSON escapes decoded, then percent
 * ones (a URL in a JSON string), each only to characters that end nothing, so a value's `%26` or `\u0022` does not
 * cut it short. Null when `text` has no escape to decode.
 */
function decodedView(text: string): { view: string; from: Int32Array } | null {
  const json = text.includes('\\u') ? decoded(text, JSON_ESCAPE, JSON_DECODED) : null;
  const once = json?.view ?? text;
  const percent = once.includes('%') ? decoded(once, PERCENT_ESCAPE, PERCENT_DECODED) : null;
  if (!json || !percent) return json ?? percent;
  return { view: percent.view, from: percent.from.map((i) => json.from[i]!) };
}

/**
 * Replaces every secret in `text` (see the patterns above), on what it means rather than its bytes: a name or token
 * written with escapes (`"pass\u0077ord"`, `api%5Fkey=`, `ck%5Flive_…`) is found in the decoded text, and its span in
 * `text` replaced. Text with no `\u` and no `%` (nearly every request) takes none of that.
 */
function redact(text: string, named: RegExp): string {
  if (!text.includes('\\u') && !text.includes('%'))
    return MAYBE_SECRET.test(text) ? replaced(text, secretSpans(text, named)) : text;
  const decodedText = decodedView(text);
  if (!MAYBE_SECRET.test(text) && !(decodedText && MAYBE_SECRET.test(decodedText.view))) return text;
  // The raw text too: decoding can split what was one secret (a URL password's `%2F` read as `/`).
  const spans = secretSpans(text, named);
  if (decodedText) {
    const { view, from } = decodedText;
    for (const span of secretSpans(view, named)) spans.push({ start: from[span.start]!, end: from[span.end]!, text: span.text });
  }
  return replaced(text, spans);
}

/** Whether `text` holds anything the log would redact (a client's request id that is a token sent by mistake). */
export function holdsSecret(text: string): boolean {
  return redact(text, SECRET_IN_TEXT) !== text;
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
  const window = (body.length > LOGGED_BODY_BYTES + 256 ? body.slice(0, LOGGED_BODY_BYTES + 256) : body).replaceAll(
    CUT,
    '\uFFFD',
  );
  const kept = cutToBytes(window, LOGGED_BODY_BYTES).length;
  const marked = kept < window.length ? `${window.slice(0, kept)}${CUT}${window.slice(kept)}` : window;
  // A body that is not JSON is read as a form (`a=1&password=…`), whose values run to the next `&`.
  const redacted = redact(marked, /^\s*[[{"]/.test(marked) ? SECRET_IN_TEXT : SECRET_IN_FORM);
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
  return redact(value.slice(0, limit).replaceAll(CUT, '\uFFFD'), SECRET_IN_TEXT).replaceAll('\u0000', '\\u0000');
}

/** A query string (without its `?`): as loggedText, its parameters' values running to the next `&`. */
export function loggedQuery(query: string, limit = 2048): string {
  return redact(query.slice(0, limit).replaceAll(CUT, '\uFFFD'), SECRET_IN_FORM).replaceAll('\u0000', '\\u0000');
}
