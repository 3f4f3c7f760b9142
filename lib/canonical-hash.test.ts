import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalText, canonicalHash, canonicalJson } from './canonical-hash';

// The definition the stored request hashes were made with: every hash stored since must still match its resend.
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(undefined),
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('canonicalJson', () => {
  it('writes what the stored hashes were made from, for any JSON-like value', () => {
    fc.assert(
      fc.property(values, (value) => canonicalJson(value) === reference(value)),
      { numRuns: 2000 },
    );
  });

  it('sorts keys, drops undefined members, and hashes equal requests equal', () => {
    expect(canonicalJson({ b: 1, a: [undefined, { d: undefined, c: 'x' }], é: true, Z: null })).toBe(
      '{"Z":null,"a":[null,{"c":"x"}],"b":1,"é":true}',
    );
    expect(canonicalHash({ a: 1, b: 2 })).toBe(canonicalHash({ b: 2, a: 1 }));
    const parts = { header: { z: 1, y: [2] }, packages: [{ b: 'x', a: undefined }] };
    expect(canonicalHash({ ...parts, packages: new CanonicalText(canonicalJson(parts.packages)) })).toBe(canonicalHash(parts));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: '1' }));
  });

  it('sorts each key order right when orders share their first key, repeat, or are too many to remember', () => {
    const orders = [
      { m: 1, b: 2, a: 3 },
      { m: 1, a: 2, b: 3 },
      { m: 1, b: 2 },
      { m: 1, b: 2, c: 3 },
      { m: 1, c: 2, b: 3 },
      { m: 1, b: 2, a: 3, '10': 4, '2': 5 },
    ];
    for (let round = 0; round < 3; round++) for (const order of orders) expect(canonicalJson(order)).toBe(reference(order));
    // Past the remembered orders' bound: the cache is emptied and the answers do not change.
    const many = Array.from({ length: 600 }, (_, i) => ({ [`k${i}`]: i, z: 'last', a: 'first' }));
    for (let round = 0; round < 2; round++) for (const order of many) expect(canonicalJson(order)).toBe(reference(order));
    const long = { ['x'.repeat(3_000)]: 1, a: 2 };
    expect(canonicalJson(long)).toBe(reference(long));
    expect(canonicalJson(long)).toBe(reference(long));
  });
});
