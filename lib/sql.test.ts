import { describe, expect, it } from 'vitest';
import { execute, queryRow, queryRows, sql, type Queryable } from './sql';

const HOSTILE = [
  "'; DROP TABLE packages; --",
  'a\u0000b',
  '$1',
  '$$ LANGUAGE sql $$',
  '"quoted" identifier',
  '\\x00 \\\\',
  '\ud800 lone surrogate',
  '%zz%',
  "E'\\047'",
  '-- comment',
  '/* open comment',
];

/** A Queryable that records what it was asked and answers with `rows`. */
function recorder(rows: Record<string, unknown>[] = [], rowCount = rows.length) {
  const calls: { text: string; values?: unknown[]; name?: string }[] = [];
  const on: Queryable = {
    query: async (config) => {
      calls.push({ text: config.text, values: config.values, name: config.name });
      return { rows, rowCount, command: 'SELECT', oid: 0, fields: [] } as never;
    },
  };
  return { on, calls };
}

describe('sql``', () => {
  it('numbers each value as a parameter in order', () => {
    const statement = sql`SELECT * FROM t WHERE a = ${1} AND b = ${'x'} AND c = ${null}`;
    expect(statement.text).toBe('SELECT * FROM t WHERE a = $1 AND b = $2 AND c = $3');
    expect(statement.values).toEqual([1, 'x', null]);
  });

  it('has no parameters without values', () => {
    const statement = sql`SELECT 1`;
    expect(statement.text).toBe('SELECT 1');
    expect(statement.values).toEqual([]);
  });

  it('keeps the same value twice as two parameters', () => {
    const id = 'abc';
    const statement = sql`SELECT ${id}, ${id}`;
    expect(statement.text).toBe('SELECT $1, $2');
    expect(statement.values).toEqual(['abc', 'abc']);
  });

  it.each(HOSTILE)('never puts a value into the text: %j', (value) => {
    const statement = sql`SELECT * FROM t WHERE name = ${value} AND other = ${sql`${value}`}`;
    expect(statement.text).toBe('SELECT * FROM t WHERE name = $1 AND other = $2');
    expect(statement.values).toEqual([value, value]);
  });

  it('keeps arrays, dates, bigints and buffers as single parameters', () => {
    const when = new Date('2026-11-23T08:00:00Z');
    const bytes = Buffer.from([0, 1, 2]);
    const list = ["x'); DROP TABLE t; --", 'b\u0000'];
    const statement = sql`SELECT ${list}::text[], ${when}, ${12345678901234567890n}, ${bytes}, ${true}`;
    expect(statement.text).toBe('SELECT $1::text[], $2, $3, $4, $5');
    expect(statement.values).toEqual([list, when, 12345678901234567890n, bytes, true]);
  });

  it('splices fragments in and renumbers their parameters', () => {
    const where = sql`a = ${1} AND b = ${2}`;
    const statement = sql`SELECT ${'x'} FROM t WHERE ${where} AND c = ${3}`;
    expect(statement.text).toBe('SELECT $1 FROM t WHERE a = $2 AND b = $3 AND c = $4');
    expect(statement.values).toEqual(['x', 1, 2, 3]);
  });

  it('nests fragments several levels deep, at the start and end of the text', () => {
    const inner = sql`${'i'}`;
    const middle = sql`${inner} = ${sql`lower(${'m'})`}`;
    const statement = sql`${middle} OR ${sql`${inner} IS NULL`}`;
    expect(statement.text).toBe('$1 = lower($2) OR $3 IS NULL');
    expect(statement.values).toEqual(['i', 'm', 'i']);
  });

  it('leaves a fragment unchanged when it is reused', () => {
    const fragment = sql`x = ${1}`;
    const one = sql`SELECT ${2} WHERE ${fragment}`;
    const two = sql`SELECT ${fragment}, ${fragment}`;
    expect(fragment.text).toBe('x = $1');
    expect(one.text).toBe('SELECT $1 WHERE x = $2');
    expect(two.text).toBe('SELECT x = $1, x = $2');
    expect(two.values).toEqual([1, 1]);
  });

  it('sql.empty adds nothing', () => {
    const filter: string | undefined = undefined;
    const statement = sql`SELECT 1 WHERE a = ${5} ${filter === undefined ? sql.empty : sql`AND b = ${filter}`}`;
    expect(statement.text).toBe('SELECT 1 WHERE a = $1 ');
    expect(statement.values).toEqual([5]);
  });

  it('sql.join puts the separator between fragments and numbers across them', () => {
    const fragments = [sql`(${1}, ${'a'})`, sql`(${2}, ${'b'})`, sql`(DEFAULT, ${'c'})`];
    expect(sql`INSERT INTO t VALUES ${sql.join(fragments)}`.text).toBe('INSERT INTO t VALUES ($1, $2), ($3, $4), (DEFAULT, $5)');
    expect(sql`WHERE ${sql.join([sql`a = ${1}`, sql`b = ${2}`], sql` AND `)}`.text).toBe('WHERE a = $1 AND b = $2');
    expect(sql`${sql.join([])}`.text).toBe('');
  });

  it('sql.id quotes identifiers and doubles their quotes', () => {
    expect(sql`SELECT ${sql.id('secret')} FROM ${sql.id('public', 'webhook_endpoints')}`.text).toBe(
      'SELECT "secret" FROM "public"."webhook_endpoints"',
    );
    expect(sql.id('a"; DROP TABLE t; --').text).toBe('"a""; DROP TABLE t; --"');
    expect(sql.id('a"; DROP TABLE t; --').values).toEqual([]);
  });

  it('sql.id refuses names PostgreSQL would not keep as given', () => {
    expect(() => sql.id()).toThrow(TypeError);
    expect(() => sql.id('')).toThrow(/empty/);
    expect(() => sql.id('a\u0000b')).toThrow(/NUL/);
    expect(() => sql.id('x'.repeat(64))).toThrow(/63 bytes/);
    expect(sql.id('x'.repeat(63)).text).toBe(`"${'x'.repeat(63)}"`);
  });

  it('refuses to be called with an array built at run time', () => {
    const forged = Object.assign(["SELECT '", "'"], { raw: ["SELECT '", "'"] });
    expect(() => sql(forged as unknown as TemplateStringsArray, 'x')).toThrow(/template tag/);
  });

  it('refuses values that are bugs rather than data', () => {
    const call = (value: unknown) => () => sql`SELECT ${value as string}`;
    expect(call(undefined)).toThrow(/undefined/);
    expect(call({ a: 1 })).toThrow(/JSON.stringify/);
    expect(call(() => 1)).toThrow(/function/);
    expect(call(Symbol('s'))).toThrow(/symbol/);
    expect(call(Number.NaN)).toThrow(/finite/);
    expect(call(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(call(new Date('nope'))).toThrow(/invalid Date/);
    expect(call([1, undefined])).toThrow(/value 1\[1\]/);
    expect(call([sql`x`])).toThrow(/sql.join/);
  });

  it('prepared() names the statement without changing it', () => {
    const statement = sql<{ id: string }>`SELECT id FROM t WHERE a = ${1}`;
    const named = statement.prepared('find_t');
    expect(named.name).toBe('find_t');
    expect(named.text).toBe(statement.text);
    expect(named.toQuery()).toEqual({ name: 'find_t', text: 'SELECT id FROM t WHERE a = $1', values: [1] });
    expect(statement.toQuery()).toEqual({ text: 'SELECT id FROM t WHERE a = $1', values: [1] });
  });
});

describe('queryRows / queryRow / execute', () => {
  it('send the text and values as they are, and return rows, the first row and the count', async () => {
    const { on, calls } = recorder([{ id: 'a' }, { id: 'b' }], 2);
    const statement = sql<{ id: string }>`SELECT id FROM t WHERE name = ${HOSTILE[0] ?? ''}`;
    expect(await queryRows(on, statement)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(await queryRow(on, statement.prepared('by_name'))).toEqual({ id: 'a' });
    expect(await execute(on, statement)).toBe(2);
    expect(calls).toEqual([
      { text: 'SELECT id FROM t WHERE name = $1', values: [HOSTILE[0]], name: undefined },
      { text: 'SELECT id FROM t WHERE name = $1', values: [HOSTILE[0]], name: 'by_name' },
      { text: 'SELECT id FROM t WHERE name = $1', values: [HOSTILE[0]], name: undefined },
    ]);
  });

  it('queryRow is undefined with no rows; execute is 0 without a row count', async () => {
    expect(await queryRow(recorder([]).on, sql`SELECT 1 WHERE false`)).toBeUndefined();
    const { on } = recorder([], Number.NaN);
    const noCount: Queryable = { query: async (config) => ({ ...(await on.query(config)), rowCount: null }) };
    expect(await execute(noCount, sql`LISTEN x`)).toBe(0);
  });
});
