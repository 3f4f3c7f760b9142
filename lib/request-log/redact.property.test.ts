import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loggedLine, type LoggedLine, type RequestLogLine } from './writer';

// The request log keeps no secret however it was spelled: a JSON \uXXXX escape of any character of a member's name
// or value, a percent-encoded character of a query's names and values or of a path segment, a name in any case. The
// stored texts are read back through every decoding a reader might apply, and no piece of a secret may come out;
// data that holds no secret is stored as it came, escapes and all.

const line = (fields: Partial<RequestLogLine>): RequestLogLine => ({
  requestId: 'req_0123456789abcdef',
  accountId: '00000000-0000-4000-8000-000000000000',
  environment: 'test',
  source: 'api',
  method: 'POST',
  path: '/wf/rate',
  query: '',
  status: 200,
  durationMs: 3,
  atMs: 0,
  ...fields,
});

const storedTexts = (logged: LoggedLine) =>
  [
    logged.requestId,
    logged.path,
    logged.query,
    logged.clientAddress,
    logged.userAgent,
    logged.requestBody,
    logged.responseBody,
  ].filter((text): text is string => text !== null);

// How a reader might decode what is stored.
const jsonUnescaped = (text: string) =>
  text.replace(/\\(?:u([0-9a-fA-F]{4})|([^]))/g, (_m, hex: string | undefined, c: string) =>
    hex
      ? String.fromCharCode(parseInt(hex, 16))
      : (({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[c] ?? c),
  );
const percentDecoded = (text: string) =>
  text.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const formDecoded = (text: string) => percentDecoded(text.replaceAll('+', ' '));
const decodings = (text: string) => [
  text,
  jsonUnescaped(text),
  percentDecoded(text),
  formDecoded(text),
  percentDecoded(jsonUnescaped(text)),
  formDecoded(jsonUnescaped(text)),
  jsonUnescaped(percentDecoded(text)),
];

/** Pieces of a secret that must not come out: all of it, and every run of 8 of its characters. */
const pieces = (secret: string) =>
  secret.length <= 8 ? [secret] : Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));

/** What each stored text leaks of `secret`, in any decoding: pieces that the same line without the secret does not hold. */
function leaks(secret: string, build: (secret: string) => RequestLogLine): string[] {
  const stored = storedTexts(loggedLine(build(secret))).flatMap(decodings);
  // A piece may match the text around the secret by chance (a key name, the marker): that is no leak.
  const context = [...storedTexts(loggedLine(build(''))).flatMap(decodings), '[redacted]'].join('\n');
  return [...new Set(pieces(secret))].filter((piece) => !context.includes(piece) && stored.some((text) => text.includes(piece)));
}

// --- How a character may be written. A flag per character says whether to escape it; the flags repeat over longer text.

type Flags = boolean[];
const flags = fc.array(fc.boolean(), { minLength: 1, maxLength: 24 });
const flag = (f: Flags, i: number) => f[i % f.length]!;
const hex = (code: number, width: number, upper: boolean) =>
  code.toString(16).padStart(width, '0')[upper ? 'toUpperCase' : 'toLowerCase']();

/** JSON string content: what JSON.stringify must escape, plus any character written as \uXXXX (or `/` as `\/`) where flagged. */
function jsonContent(text: string, escape: Flags, upper: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (flag(escape, i)) out += c === '/' && flag(escape, i + 1) ? '\\/' : `\\u${hex(c.charCodeAt(0), 4, upper)}`;
    else out += JSON.stringify(c).slice(1, -1);
  }
  return out;
}

/** A query's name or value, a form field's or a path segment's: what must be percent-encoded is, and any other flagged character too. */
function percentContent(text: string, escape: Flags, upper: boolean, spaceAsPlus = false): string {
  let out = '';
  let i = 0;
  for (const c of text) {
    const must = !/^[A-Za-z0-9._~!$'()*,;:@-]$/.test(c);
    if (c === ' ' && spaceAsPlus) out += '+';
    else if (must || flag(escape, i)) for (const byte of Buffer.from(c)) out += `%${hex(byte, 2, upper)}`;
    else out += c;
    i++;
  }
  return out;
}

/** A name in the case the flags give its letters (the names' match is case-insensitive). */
const cased = (name: string, f: Flags) => [...name].map((c, i) => (flag(f, i + 7) ? c.toUpperCase() : c.toLowerCase())).join('');

// --- Secrets and what surrounds them.

const base64url = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64url'));
const base64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64'));
/** An issued secret: a prefix and its random part (the piece that must never be stored). */
const issued = fc.oneof(
  fc.record({ prefix: fc.constantFrom('ck_test_', 'ck_live_', 'ck_ops_'), random: base64url }),
  fc.record({ prefix: fc.constant('whsec_'), random: base64 }),
);
/** Names that say a secret, as redact.ts knows them. */
const secretName = fc.constantFrom(
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'api_key',
  'api-key',
  'apikey',
  'x-api-key',
  'authorization',
  'credentials',
  'clientSecret',
  'newPassword',
  'accessToken',
  'private_key',
  'access_key',
  'secret_key',
  'webhookSecret',
  'previous_secret',
);
/** A password: any printable characters, the ones that end a value or start an escape weighted in. */
const password = fc
  .array(fc.oneof(fc.constantFrom(...'"\'\\&=%+#?/:;,{}[] \tA1z_-é😀'.split('')), fc.string({ minLength: 1, maxLength: 4 })), {
    minLength: 8,
    maxLength: 24,
  })
  .map((parts) => parts.join(''))
  .filter((text) => text.length >= 8 && text.isWellFormed());
/** Ordinary data: names and values of this API, and near misses of secret names that are not secrets. */
const plainName = fc.constantFrom(
  'weight',
  'TrackingNumber',
  'from_zip',
  'note',
  'secret_expires_at',
  'token_count',
  'tokenizer',
  'keyboard',
  'password_hint',
  'url',
  'ManifestID',
);
const plainValue = fc.constantFrom(
  '2.5',
  '10001',
  'Newark NJ',
  'ground',
  'a&b',
  'x=y',
  '50%',
  '100% cotton',
  'café',
  '1Z999AA10123456784',
  'key lime',
  'we_1',
  'C:\\tmp',
  'ck_live',
  'whsec',
);

interface Encoding {
  escape: Flags;
  upper: boolean;
}
const encoding = fc.record({ escape: flags, upper: fc.boolean() });

/** Filler members around the one that matters, so that it is not always first or last. */
const filler = fc.array(fc.tuple(plainName, plainValue), { maxLength: 3 });

const jsonBody = (members: [string, string][], enc: Encoding) =>
  `{${members.map(([name, value]) => `"${jsonContent(name, enc.escape, enc.upper)}": "${jsonContent(value, enc.escape, enc.upper)}"`).join(', ')}}`;
const formText = (pairs: [string, string][], enc: Encoding, plus: boolean) =>
  pairs
    .map(
      ([name, value]) => `${percentContent(name, enc.escape, enc.upper)}=${percentContent(value, enc.escape, enc.upper, plus)}`,
    )
    .join('&');

/** A line carrying one secret somewhere, built around the secret's random part (so it can be built without it). */
type Carrier = { random: string; build: (random: string) => RequestLogLine; where: string };

const body = (text: string, response: boolean) => (response ? { responseBody: text } : { requestBody: text });

const carriers: fc.Arbitrary<Carrier> = fc.oneof(
  // A JSON member named for a secret, name and value escaped.
  fc
    .record({ name: secretName, random: password, enc: encoding, before: filler, after: filler, response: fc.boolean() })
    .map(({ name, random, enc, before, after, response }) => ({
      random,
      where: 'json member',
      build: (r: string) => line(body(jsonBody([...before, [cased(name, enc.escape), r], ...after], enc), response)),
    })),
  // An issued secret in a JSON string under any name, its prefix and random part escaped.
  fc
    .record({ secret: issued, name: fc.oneof(plainName, secretName), enc: encoding, before: filler, response: fc.boolean() })
    .map(({ secret, name, enc, before, response }) => ({
      random: secret.random,
      where: 'json value',
      build: (r: string) => line(body(jsonBody([...before, [name, `my key is ${secret.prefix}${r}.`]], enc), response)),
    })),
  // A query string, or a form-encoded body: a secret-named parameter, or an issued secret as any parameter's value.
  fc
    .record({
      name: secretName,
      random: password,
      enc: encoding,
      plus: fc.boolean(),
      before: filler,
      after: filler,
      inBody: fc.boolean(),
    })
    .map(({ name, random, enc, plus, before, after, inBody }) => ({
      random,
      where: inBody ? 'form body' : 'query',
      build: (r: string) => {
        const text = formText([...before, [cased(name, enc.escape), r], ...after], enc, plus);
        return line(inBody ? { requestBody: text } : { query: text });
      },
    })),
  fc
    .record({ secret: issued, name: fc.oneof(plainName, secretName), enc: encoding, before: filler, inBody: fc.boolean() })
    .map(({ secret, name, enc, before, inBody }) => ({
      random: secret.random,
      where: inBody ? 'form body value' : 'query value',
      build: (r: string) => {
        const text = formText([...before, [name, `${secret.prefix}${r}`]], enc, false);
        return line(inBody ? { requestBody: text } : { query: text });
      },
    })),
  // A URL inside a JSON string, its query naming a secret.
  fc.record({ name: secretName, random: password, enc: encoding, json: encoding }).map(({ name, random, enc, json }) => ({
    random,
    where: 'query in a JSON string',
    build: (r: string) =>
      line({
        requestBody: jsonBody(
          [['url', `https://hooks.example/in?a=1&${formText([[cased(name, enc.escape), r]], enc, false)}&b=2`]],
          json,
        ),
      }),
  })),
  // A path segment, a logged header, the client's request id.
  fc
    .record({ secret: issued, enc: encoding, collection: fc.constantFrom('webhooks', 'packages', 'manifests') })
    .map(({ secret, enc, collection }) => ({
      random: secret.random,
      where: 'path',
      build: (r: string) =>
        line({
          method: 'GET',
          path: `/${collection}/${percentContent(`${secret.prefix}${r}`, enc.escape, enc.upper)}/deliveries`,
        }),
    })),
  fc.record({ secret: issued, enc: encoding, percent: fc.boolean() }).map(({ secret, enc, percent }) => ({
    random: secret.random,
    where: 'user agent',
    build: (r: string) => {
      const token = `${secret.prefix}${r}`;
      return line({
        userAgent: `shipper/2.1 (${percent ? percentContent(token, enc.escape, enc.upper) : jsonContent(token, enc.escape, enc.upper)})`,
      });
    },
  })),
  fc.record({ secret: issued }).map(({ secret }) => ({
    random: secret.random,
    where: 'request id',
    build: (r: string) => line({ requestId: `${secret.prefix}${r}` }),
  })),
);

describe('the request log keeps no secret however it is encoded', () => {
  it('stores no piece of a secret in any decoding, wherever in the line it was sent', () => {
    fc.assert(
      fc.property(carriers, ({ random, build, where }) => {
        expect(leaks(random, build), `${where}: ${JSON.stringify(loggedLine(build(random)))}`).toEqual([]);
      }),
      { numRuns: 3_000 },
    );
  });

  it('redacts each kind of secret in its escaped and encoded forms (examples)', () => {
    const token = `ck_test_${'A1b2'.repeat(10)}xyz`;
    const cases: [Partial<RequestLogLine>, keyof LoggedLine, string][] = [
      [{ requestBody: '{"pass\\u0077ord": "hunter2-abc"}' }, 'requestBody', '{"pass\\u0077ord": "[redacted]"}'],
      [{ requestBody: `{"note": "ck\\u005f${token.slice(3)}"}` }, 'requestBody', '{"note": "[redacted]"}'],
      [{ requestBody: `{"note": "${token.slice(0, 8)}\\u0041${token.slice(9)}"}` }, 'requestBody', '{"note": "[redacted]"}'],
      [{ requestBody: '{"secret": "whsec_ab+cd\\/ef=="}' }, 'requestBody', '{"secret": "[redacted]"}'],
      [{ requestBody: '{"note": "whsec_ab+cd\\/ef=="}' }, 'requestBody', '{"note": "[redacted]"}'],
      [{ query: 'password=hunter2&limit=5' }, 'query', 'password=[redacted]&limit=5'],
      [{ query: 'limit=5&pass%77ord=hunter%26two+x' }, 'query', 'limit=5&pass%77ord=[redacted]'],
      [
        { query: 'api%5Fkey=k1&API_KEY=k2&user%5Bpassword%5D=k3' },
        'query',
        'api%5Fkey=[redacted]&API_KEY=[redacted]&user%5Bpassword%5D=[redacted]',
      ],
      [{ query: 'note=ck%5Flive_abcdef%2B' }, 'query', 'note=[redacted]'],
      [{ requestBody: 'grant=x&Client%5FSecret=s3cr%3Dt&y=1' }, 'requestBody', 'grant=x&Client%5FSecret=[redacted]&y=1'],
      [
        { requestBody: '{"url": "https://x.example/?a=1&pass%77ord=abc&b=2"}' },
        'requestBody',
        '{"url": "https://x.example/?a=1&pass%77ord=[redacted]&b=2"}',
      ],
      [{ path: `/webhooks/ck%5F${token.slice(3)}` }, 'path', '/webhooks/[redacted]'],
      // A token's alphabet holds `/`: what follows it in the path goes too.
      [{ path: `/webhooks/%63%6B_live_${'Z'.repeat(43)}/x` }, 'path', '/webhooks/[redacted]'],
      [{ path: `/webhooks/%63%6B_live_${'Z'.repeat(43)}%3F` }, 'path', '/webhooks/[redacted]%3F'],
      [{ userAgent: `bot/1 ${token}` }, 'userAgent', 'bot/1 [redacted]'],
    ];
    for (const [fields, column, expected] of cases)
      expect(loggedLine(line(fields))[column], JSON.stringify(fields)).toBe(expected);
  });

  it('never keeps a token-shaped request id', () => {
    for (const id of [`ck_live_${'a'.repeat(43)}`, 'ck_ops_abcdefgh', 'whsec_abcdefghij', 'trace-ck_test_abcdefgh']) {
      expect(loggedLine(line({ requestId: id })).requestId).not.toContain('abcdefgh');
    }
    expect(loggedLine(line({ requestId: 'client-trace-12345' })).requestId).toBe('client-trace-12345');
  });
});

describe('the request log keeps data that holds no secret as it came', () => {
  const plainText = fc.array(fc.tuple(plainName, plainValue), { minLength: 1, maxLength: 5 });
  it('stores escaped and encoded bodies, queries, paths and headers byte for byte', () => {
    fc.assert(
      fc.property(
        plainText,
        encoding,
        fc.boolean(),
        fc.constantFrom('json', 'form', 'query', 'path', 'agent'),
        (pairs, enc, plus, where) => {
          const fields: Partial<RequestLogLine> =
            where === 'json'
              ? { requestBody: jsonBody(pairs, enc), responseBody: jsonBody(pairs.toReversed(), enc) }
              : where === 'form'
                ? { requestBody: formText(pairs, enc, plus) }
                : where === 'query'
                  ? { query: formText(pairs, enc, plus) }
                  : where === 'path'
                    ? { path: `/packages/${pairs.map(([, value]) => percentContent(value, enc.escape, enc.upper)).join('/')}` }
                    : {
                        userAgent: `shipper/2.1 (${pairs.map(([name, value]) => `${name}: ${jsonContent(value, enc.escape, enc.upper)}`).join('; ')})`,
                      };
          const logged = loggedLine(line(fields));
          if (fields.requestBody !== undefined) expect(logged.requestBody).toBe(fields.requestBody);
          if (fields.responseBody !== undefined) expect(logged.responseBody).toBe(fields.responseBody);
          if (fields.query !== undefined) expect(logged.query).toBe(fields.query);
          if (fields.path !== undefined) expect(logged.path).toBe(fields.path);
          if (fields.userAgent !== undefined) expect(logged.userAgent).toBe(fields.userAgent);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
