import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { PORTAL_API_ROUTES } from '@/lib/portal/generated/api-routes';

// The pieces of the hostile-input suite (e2e/api/hostile-input.test.ts): the portal's route table read
// from app/portal-api, a JSON writer that can say what JSON.stringify cannot (duplicate keys, numbers
// past a double, `__proto__` as a key), the hostile values, and the server's processes and memory.

// ---------------------------------------------------------------- the portal's routes

export interface PortalRoute {
  /** e.g. /portal-api/webhooks/:id/deliveries/:deliveryId/redeliver */
  pattern: string;
  methods: string[];
}

/** Every portal API route with the HTTP methods it exports, as Next serves them (the table the proxy uses). */
export function portalRoutes(): PortalRoute[] {
  return PORTAL_API_ROUTES.map(([pattern, methods]) => ({ pattern, methods: [...methods] }));
}

// ---------------------------------------------------------------- JSON beyond JSON.stringify

/** A JSON token written as it is: `1e999`, `-0`, 30 digits. */
export class Raw {
  constructor(readonly text: string) {}
}

/** An object as a list of members, so that keys may repeat and `__proto__` is an ordinary key. */
export class Members {
  constructor(readonly members: [string, unknown][]) {}
}

export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Members) return `{${value.members.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return toJson(new Members(Object.entries(value)));
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  // JSON.stringify writes a lone surrogate as \udXXX: the server's JSON.parse gets it back.
  return JSON.stringify(value) ?? 'null';
}

/** A plain JSON value as Members all the way down, so mutations can add repeated keys. */
export function toMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toMembers);
  if (value !== null && typeof value === 'object' && !(value instanceof Raw) && !(value instanceof Members)) {
    return new Members(Object.entries(value).map(([k, v]) => [k, toMembers(v)]));
  }
  return value;
}

// ---------------------------------------------------------------- hostile values

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const controlChar = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((c) => String.fromCharCode(c));

export const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  'a\ud800b',
  '\udc00',
  '\u202egnp.exe',
  'abc\u200b\u200c\u200d\u2060\ufeff',
  '\u200f\u200e\u061c',
  '\u2028\u2029',
  '\u0085\u009b',
  '\u001b[31mred',
  'שלום עולם',
  'مرحبا',
  'e\u0301\u0301\u0301\u0301',
  '𝕏🚀👩‍👩‍👧',
  '%00',
  '%ZZ',
  "'; DROP TABLE accounts; --",
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '\\',
  '"',
  'null',
  'NaN',
  '__proto__',
  'constructor',
  ' ',
  '',
] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(loneSurrogate, controlChar, fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom(...NASTY_STRINGS)),
        { maxLength: 8 },
      )
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom(300, 5_000, 100_000, 900_000).map((n) => 'x'.repeat(n)) },
);

export const HOSTILE_DATES = [
  '0000-01-01',
  '0000-00-00',
  '2026-02-30',
  '2026-13-01',
  '9999-99-99',
  '9999-12-31',
  '1969-12-31',
  '1899-01-01',
  '2100-01-01',
  '2026-11-23T24:00:00Z',
  '2026-11-23T23:59:60Z',
  '2026-11-23T08:00:00+25:00',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00Z',
  '2026-11-23T08:00:00.123456789123Z',
  '2026/11/23',
  '23/11/2026',
  '1e10',
] as const;

export const HOSTILE_NUMBERS = [
  '1e999',
  '-1e999',
  '-0',
  '1e-400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9007199254740993',
  '1.7976931348623157e308',
  '5e-324',
  '0',
  '-1',
  '0.1e1',
  '1E2',
] as const;

const hostileNumber = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS).map((t) => new Raw(t)),
  fc.double({ noNaN: true }),
  fc.integer(),
);

const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    ' ',
    '\u0000',
    'a.b',
    '[0]',
    '$where',
  ),
  fc.string({ maxLength: 8 }),
);

const { value: hostileJsonValue } = fc.letrec<{ value: unknown; object: Members }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.constantFrom(...HOSTILE_DATES),
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((members) => new Members(members)),
}));

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileJsonValue },
  // Arrays long enough to matter, short enough for hundreds of runs.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(1_000, 20_000, 100_000), fc.constantFrom<unknown>(1, '\u0000', 'x', null))
      .map(([n, element]) => new Raw(`[${Array(n).fill(toJson(element)).join(',')}]`)),
  },
);

/** How a field keeps its type but turns hostile: a string gains a bad character, a date becomes impossible, a number extreme. */
export interface Taint {
  fragment: string;
  position: 'start' | 'middle' | 'end' | 'only';
  date: string;
  number: unknown;
  copies: number;
}

const taint: fc.Arbitrary<Taint> = fc.record({
  fragment: fc.oneof(
    fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udfff',
      '\u0007',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u202e',
      '\u200b',
      '\ufeff',
      '\u2028',
      '\t',
      '\n',
      'ש',
    ),
    controlChar,
    loneSurrogate,
  ),
  position: fc.constantFrom('start', 'middle', 'end', 'only'),
  date: fc.constantFrom(...HOSTILE_DATES),
  number: hostileNumber,
  copies: fc.constantFrom(2, 101, 5_001, 20_000),
});

export type Edit = { kind: 'taint' | 'set' | 'duplicate' | 'proto' | 'delete'; at: number; value: unknown; taint: Taint };

export const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('taint', 'taint', 'taint', 'taint', 'set', 'set', 'duplicate', 'proto', 'delete'),
  at: fc.nat(),
  value: hostileValue,
  taint,
});

const DATE_LIKE = /^\d{4}-\d\d-\d\d/;

/** The value made hostile while keeping its type, so that the rest of the body stays valid and it reaches the code behind validation. */
function tainted(value: unknown, t: Taint): unknown {
  if (typeof value === 'string') {
    if (DATE_LIKE.test(value)) return t.date;
    if (t.position === 'only') return t.fragment;
    if (t.position === 'start') return t.fragment + value;
    if (t.position === 'end') return value + t.fragment;
    const half = Math.floor(value.length / 2);
    return value.slice(0, half) + t.fragment + value.slice(half);
  }
  if (typeof value === 'number') return t.number;
  if (Array.isArray(value) && value.length > 0) {
    // Copies of the first element, at most ~6 MB of them (an element may already hold a huge string).
    const copies = Math.max(2, Math.min(t.copies, Math.floor(6_000_000 / (toJson(value[0]).length + 1))));
    return Array.from({ length: copies }, () => structuredCloneJson(value[0]));
  }
  if (value instanceof Members) return new Members([...value.members, ['__proto__', new Members([['polluted', true]])]]);
  return t.fragment;
}

function structuredCloneJson(value: unknown): unknown {
  if (value instanceof Members) return new Members(value.members.map(([k, v]) => [k, structuredCloneJson(v)]));
  if (Array.isArray(value)) return value.map(structuredCloneJson);
  return value;
}

// Everywhere a value sits in a body: the slot's container and its key or index.
type Slot = { parent: Members; index: number } | { parent: unknown[]; index: number };

function slots(value: unknown, out: Slot[] = []): Slot[] {
  if (value instanceof Members) {
    value.members.forEach(([, v], index) => {
      out.push({ parent: value, index });
      slots(v, out);
    });
  } else if (Array.isArray(value)) {
    value.forEach((v, index) => {
      out.push({ parent: value, index });
      slots(v, out);
    });
  }
  return out;
}

/**
 * The sample with each edit applied: a field tainted (same type, hostile content), replaced by any
 * hostile value, its key repeated, a prototype key added next to it, or removed.
 */
export function applyEdits(sample: unknown, edits: Edit[]): unknown {
  const body = toMembers(structuredClone(sample));
  for (const change of edits) {
    const all = slots(body);
    if (all.length === 0) return change.kind === 'taint' ? tainted(body, change.taint) : change.value;
    const { parent, index } = all[change.at % all.length];
    if (parent instanceof Members) {
      const [key, current] = parent.members[index];
      if (change.kind === 'taint') parent.members[index] = [key, tainted(current, change.taint)];
      else if (change.kind === 'set') parent.members[index] = [key, change.value];
      else if (change.kind === 'duplicate') parent.members.push([key, change.value]);
      else if (change.kind === 'proto')
        parent.members.push([
          change.at % 2 ? '__proto__' : 'constructor',
          new Members([
            ['polluted', change.value],
            ['prototype', new Members([['polluted', true]])],
          ]),
        ]);
      else parent.members.splice(index, 1);
    } else if (change.kind === 'delete') {
      parent.splice(index, 1);
    } else {
      parent[index] = change.kind === 'taint' ? tainted(parent[index], change.taint) : change.value;
    }
  }
  return body;
}

/** Path segments as sent (already percent-encoded where they are escapes). */
export const HOSTILE_SEGMENTS = [
  '%ZZ',
  '%',
  '%E0%A4',
  '%00',
  'a%00b',
  '%0A',
  '%7F',
  '%C2%85',
  '%ED%A0%80',
  '%C0%80',
  '%F4%90%80%80',
  '%EF%BB%BF',
  '%E2%80%AE',
  '%E2%80%8B',
  '%D7%A9%D7%9C%D7%95%D7%9D',
  '%F0%9F%9A%80',
  '%25',
  '%u0000',
  '%2F..%2F..%2Fetc%2Fpasswd',
  '%27%20OR%201%3D1',
  'x'.repeat(129),
  'x'.repeat(6_000),
  'we_doesnotexist',
  'MAN-0000000000000000',
  '00000000-0000-0000-0000-000000000000',
] as const;

const QUERY_KEYS = [
  'limit',
  'cursor',
  'offset',
  'from',
  'to',
  'q',
  'service',
  'tracking',
  'status',
  'type',
  'environment',
  'page',
  '__proto__',
  'constructor',
  'toString',
];
const QUERY_VALUES = [
  '%00',
  '%ZZ',
  '%',
  '%ED%A0%80',
  '%E2%80%AE',
  '-1',
  '0',
  '1e309',
  'NaN',
  '99999999999999999999',
  '2026-02-30',
  '0000-00-00',
  '9999-99-99',
  '0000-01-01',
  '2026-11-23T24:00:00Z',
  '',
  '[]',
  'a'.repeat(5_000),
];

/** A query string of repeated and prototype keys with escapes, NUL, impossible dates and numbers. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom(...QUERY_KEYS),
      fc.oneof(fc.constantFrom(...QUERY_VALUES), fc.constantFrom(...HOSTILE_DATES).map(encodeURIComponent)),
    ),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`);

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

/** Headers a client may send whatever the route: any of them may be odd. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
      'application/json;;;',
    ),
    'x-request-id': fc.oneof(printable(140), fc.constant('x'.repeat(4_000))),
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml', ''),
    origin: fc.constantFrom('null', 'https://evil.example', 'not a url', 'http://[::1', ''),
    'accept-language': printable(60),
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity'),
  },
  { requiredKeys: [] },
);

/** Only with a valid token or session: forwarding headers that would otherwise let the suite lock out its own address. */
export const hostileForwarding: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'x-forwarded-for': fc.constantFrom(
      'not-an-ip',
      '999.999.999.999',
      '::ffff:1.2.3.4',
      '1.1.1.1, 2.2.2.2, 3.3.3.3',
      ' ',
      'unknown',
      '1'.repeat(300),
    ),
    'x-forwarded-host': fc.constantFrom('evil.example', '', 'a'.repeat(300)),
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------- the server's processes

/** The process and all its descendants (start.ts, next start, cluster workers). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: fields resume after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const visit = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

export interface ProcessMemory {
  pid: number;
  name: string;
  rssMb: number;
}

/** Resident memory of each process of the tree (postgres, if the server started its own, left out). */
export function treeMemory(root: number): ProcessMemory[] {
  return processTree(root).flatMap((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? '?';
      if (name.startsWith('postgres')) return [];
      return [{ pid, name, rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 }];
    } catch {
      return [];
    }
  });
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
