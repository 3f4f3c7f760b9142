// What the request log keeps of a body: its first 16 KB, secrets replaced, nothing PostgreSQL cannot store.

export const LOGGED_BODY_BYTES = 16 * 1024;

export const REDACTED = '[redacted]';

// Tokens this service issues, wherever they appear (JSON, echoed headers, plain text); a `/` may be JSON-escaped.
const ISSUED_SECRET = /(?:ck_(?:live|test|ops)_|whsec_)(?:[A-Za-z0-9+/=_-]|\\\/)+/g;

// A name ending so holds a secret (`clientSecret`, `x-api-key`), so `secret_expires_at` is kept. The look-behind keeps a
// long run of letters from being matched from every position (quadratic).
const SECRET_NAME = String.raw`(?<![A-Za-z0-9_-])[A-Za-z0-9_-]*?(?:secret|secrets|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|secret[_-]?key|authorization|credentials?)`;

// After `name:` the value is a quoted string (or a bare word); after `name=` (`user[password]=`, `%5D=`) it is
// `paramValue`. One pattern for both, so a body is scanned once.
const secretNamed = (paramValue: string) =>
  new RegExp(
    String.raw`(["']?${SECRET_NAME})(?:(["']?\s*:\s*)(?:"(?:[^"\\]|\\.)*(?:"|$)|'(?:[^'\\]|\\.)*(?:'|$)|[^\s,}\]"']+)|((?:\]|%5[Dd])?=)${paramValue})`,
    'gi',
  );
const SECRET_IN_FORM = secretNamed(String.raw`[^&\r\n]+`);
const SECRET_IN_TEXT = secretNamed(String.raw`(?:[^&\s"\\]|\\.)+`);

const URL_PASSWORD = /(\/\/|\\\/\\\/)([^/\\\s:@"]*:)[^/\\\s@"]+@/g;

// Marks where the kept part ends: a private-use character, taken out of the input first.
const CUT = '\uE000';

export interface LoggedBody {
  text: string | null;
  bytes: number;
}

// Most bodies hold none of these, and this one scan spares them the rest.
const MAYBE_SECRET = /ck_|whsec_|secret|passw|passphrase|token|key|authori|credential|\/\/|\\\//i;

interface Span {
  start: number;
  end: number;
  text: string;
}

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

// Overlapping spans merge; a span that held the cut mark keeps it, so the cut stays where it was.
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

// A backslash and the next character are one unit: `\\u0077` is an escaped backslash, not an escape.
const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})|\\[^]/g;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;
// Decoded only to characters that end nothing, so a value's `%26` or `\u0022` does not cut it short.
const PERCENT_DECODED = /^[A-Za-z0-9._~+/=-]$/;
const JSON_DECODED = /^(?!["'\\])[\x21-\x7e]$/;

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

function decodedView(text: string): { view: string; from: Int32Array } | null {
  const json = text.includes('\\u') ? decoded(text, JSON_ESCAPE, JSON_DECODED) : null;
  const once = json?.view ?? text;
  const percent = once.includes('%') ? decoded(once, PERCENT_ESCAPE, PERCENT_DECODED) : null;
  if (!json || !percent) return json ?? percent;
  return { view: percent.view, from: percent.from.map((i) => json.from[i]!) };
}

// Secrets are sought in the decoded text (`"pass\u0077ord"`, `ck%5Flive_…`) and replaced in `text`, which keeps its escapes.
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

// A client's request id that is a token sent by mistake.
export function holdsSecret(text: string): boolean {
  return redact(text, SECRET_IN_TEXT) !== text;
}

// Redacted on 256 characters past the cut, so a secret across it is seen whole; the mark keeps what follows the cut out
// however much the replacements shortened the text. NUL, which PostgreSQL text cannot hold, is written as \u0000.
export function loggedBody(body: string | null | undefined): LoggedBody {
  if (body === undefined || body === null || body === '') return { text: null, bytes: 0 };
  const bytes = Buffer.byteLength(body);
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

export function cutToBytes(text: string, limit: number): string {
  if (text.length * 3 <= limit) return text;
  const encoded = Buffer.from(text);
  if (encoded.byteLength <= limit) return text;
  let end = limit;
  // Back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  return encoded.subarray(0, end).toString('utf8');
}

export function loggedText(value: string | null | undefined, limit = 1024): string | null {
  if (value === undefined || value === null) return null;
  return redact(value.slice(0, limit).replaceAll(CUT, '\uFFFD'), SECRET_IN_TEXT).replaceAll('\u0000', '\\u0000');
}

export function loggedQuery(query: string, limit = 2048): string {
  return redact(query.slice(0, limit).replaceAll(CUT, '\uFFFD'), SECRET_IN_FORM).replaceAll('\u0000', '\\u0000');
}
