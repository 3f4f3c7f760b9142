import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { packageSample } from '@/e2e/api/support/samples';
import { parseOperation } from '@/lib/schemas/parse';
import { PACKAGE_MANIFEST_ALIASES, ZPackageManifestRequest } from '@/lib/schemas/package-manifest';
import { unpriced } from '@/lib/billing/pricing';
import { sql, type Queryable } from '@/lib/sql';
import { insertTogether, type InsertedRow, type PackageToInsert } from './insert-together';

// The batching itself, against a database stand-in that answers when told: which packages share a statement, and that
// each caller gets its own package's answer. What the statements do in PostgreSQL is the API suite's (package, counters).

const charge = unpriced('AirSkip', 'no card', new Date('2026-12-01T00:00:00Z'));

function item(number: string): PackageToInsert {
  const pkg = parseOperation(ZPackageManifestRequest, packageSample(number), {
    aliases: PACKAGE_MANIFEST_ALIASES,
    at: 'package',
  });
  return { accountId: '00000000-0000-4000-8000-000000000001', environment: 'test', pkg, charge, requestHash: `hash-${number}` };
}

const single = (it: PackageToInsert) =>
  sql<InsertedRow>`SELECT 'single' AS kind, ${it.pkg.TrackingNumber} AS number`.prepared('single_stand_in');

interface Sent {
  name: string | undefined;
  numbers: string[];
  answer(rows: unknown[]): void;
  fail(error: Error): void;
}

/** A pool whose every query waits until the test answers it. */
function standIn() {
  const sent: Sent[] = [];
  const on: Queryable = {
    query: <R extends pg.QueryResultRow>(config: pg.QueryConfig<unknown[]>) =>
      new Promise<pg.QueryResult<R>>((resolve, reject) => {
        const values = config.values ?? [];
        const numbers = config.name === 'packages_insert_together' ? (values[1] as string[]) : [String(values[0])];
        sent.push({
          name: config.name,
          numbers,
          answer: (rows) => resolve({ rows } as pg.QueryResult<R>),
          fail: reject,
        });
      }),
  };
  return { on, sent };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('packages accepted together', () => {
  it('writes a package that arrives alone with the single statement, at once', async () => {
    const { on, sent } = standIn();
    const answer = insertTogether(on, 'MAN-A', item('ALONE1'), single);
    await tick();
    expect(sent.map((s) => [s.name, s.numbers])).toEqual([['single_stand_in', ['ALONE1']]]);
    sent[0]!.answer([{ inserted: true, open: true, delivered: false }]);
    await expect(answer).resolves.toEqual({ inserted: true, open: true, delivered: false });
  });

  it('sends what arrives while three statements are in flight as one, and answers each package for itself', async () => {
    const { on, sent } = standIn();
    const first = ['T1', 'T2', 'T3'].map((n) => insertTogether(on, 'MAN-B', item(n), single));
    await tick();
    expect(sent).toHaveLength(3);
    const later = ['T9', 'T4', 'T5', 'T6'].map((n) => insertTogether(on, 'MAN-B', item(n), single));
    await tick();
    expect(sent).toHaveLength(3);
    sent[0]!.answer([{ inserted: true, open: true, delivered: true }]);
    await tick();
    expect(sent).toHaveLength(4);
    // In tracking-number order, so that two statements sharing numbers lock them in the same order.
    expect(sent[3]!.name).toBe('packages_insert_together');
    expect(sent[3]!.numbers).toEqual(['T4', 'T5', 'T6', 'T9']);
    sent[3]!.answer([{ inserted: ['T4', 'T9', 'T6'], open: true, delivered: true }]);
    expect(await Promise.all(later)).toEqual([
      { inserted: true, open: true, delivered: true },
      { inserted: true, open: true, delivered: true },
      { inserted: false, open: true, delivered: true },
      { inserted: true, open: true, delivered: true },
    ]);
    sent[1]!.answer([{ inserted: true, open: true, delivered: false }]);
    sent[2]!.answer([{ inserted: false, open: false, delivered: false }]);
    expect(await Promise.all(first)).toEqual([
      { inserted: true, open: true, delivered: true },
      { inserted: true, open: true, delivered: false },
      { inserted: false, open: false, delivered: false },
    ]);
  });

  it('tries a failed statement again one package at a time: only the package that fails alone gets the error', async () => {
    const { on, sent } = standIn();
    const blockers = ['B1', 'B2', 'B3'].map((n) => insertTogether(on, 'MAN-C', item(n), single));
    await tick();
    const waiting = ['W1', 'W2', 'W3'].map((n) => insertTogether(on, 'MAN-C', item(n), single));
    const settled = Promise.allSettled(waiting);
    for (const s of sent.slice(0, 3)) s.answer([{ inserted: true, open: true, delivered: false }]);
    await Promise.all(blockers);
    await tick();
    expect(sent[3]!.numbers).toEqual(['W1', 'W2', 'W3']);
    sent[3]!.fail(Object.assign(new Error('value out of range'), { code: '22003' }));
    await tick();
    expect(sent.slice(4).map((s) => [s.name, s.numbers[0]])).toEqual([
      ['single_stand_in', 'W1'],
      ['single_stand_in', 'W2'],
      ['single_stand_in', 'W3'],
    ]);
    sent[4]!.answer([{ inserted: true, open: true, delivered: false }]);
    sent[5]!.fail(Object.assign(new Error('value out of range'), { code: '22003' }));
    sent[6]!.answer([{ inserted: true, open: true, delivered: false }]);
    const outcomes = await settled;
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22003' });
  });

  it('fails every package of a statement whose connection went, without trying them again one by one', async () => {
    const { on, sent } = standIn();
    const blockers = ['L1', 'L2', 'L3'].map((n) => insertTogether(on, 'MAN-G', item(n), single));
    await tick();
    const waiting = Promise.allSettled(['M1', 'M2'].map((n) => insertTogether(on, 'MAN-G', item(n), single)));
    sent[0]!.answer([{ inserted: true, open: true, delivered: false }]);
    await tick();
    // Perhaps after its commit: tried again, the packages would be answered as resends of themselves.
    sent[3]!.fail(new Error('Connection terminated unexpectedly'));
    const outcomes = await waiting;
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    sent[1]!.answer([{ inserted: true, open: true, delivered: false }]);
    sent[2]!.answer([{ inserted: true, open: true, delivered: false }]);
    await Promise.all(blockers);
    expect(sent).toHaveLength(4);
  });

  it('never puts two spellings of one tracking number in one statement, and keeps manifests apart', async () => {
    const { on, sent } = standIn();
    const blockers = ['X1', 'X2', 'X3'].map((n) => insertTogether(on, 'MAN-D', item(n), single));
    const elsewhere = insertTogether(on, 'MAN-E', item('OTHER1'), single);
    await tick();
    expect(sent).toHaveLength(4);
    const waiting = ['abc1', 'ABC1', 'Q1', 'Abc1'].map((n) => insertTogether(on, 'MAN-D', item(n), single));
    sent[0]!.answer([{ inserted: true, open: true, delivered: false }]);
    await tick();
    expect(sent[4]!.numbers).toEqual(['abc1', 'Q1']);
    sent[1]!.answer([{ inserted: true, open: true, delivered: false }]);
    await tick();
    // Alone in its statement, the second spelling goes with the single statement.
    expect([sent[5]!.name, sent[5]!.numbers]).toEqual(['single_stand_in', ['ABC1']]);
    sent[2]!.answer([{ inserted: true, open: true, delivered: false }]);
    await tick();
    expect([sent[6]!.name, sent[6]!.numbers]).toEqual(['single_stand_in', ['Abc1']]);
    sent[3]!.answer([{ inserted: true, open: true, delivered: false }]);
    sent[4]!.answer([{ inserted: ['abc1', 'Q1'], open: true, delivered: false }]);
    sent[5]!.answer([{ inserted: false, open: true, delivered: false }]);
    sent[6]!.answer([{ inserted: false, open: true, delivered: false }]);
    expect((await Promise.all(waiting)).map((r) => r?.inserted)).toEqual([true, false, true, false]);
    await Promise.all([...blockers, elsewhere]);
  });

  it("never puts another account's package in a statement, whatever manifest id it names", async () => {
    const { on, sent } = standIn();
    const other = (n: string) => ({ ...item(n), accountId: '00000000-0000-4000-8000-000000000002' });
    const blockers = ['Y1', 'Y2', 'Y3'].map((n) => insertTogether(on, 'MAN-F', item(n), single));
    await tick();
    const theirs = ['Z1', 'Z2'].map((n) => insertTogether(on, 'MAN-F', other(n), single));
    const ours = ['Y4', 'Y5'].map((n) => insertTogether(on, 'MAN-F', item(n), single));
    await tick();
    // The other account's lane had nothing in flight: its packages went at once, each alone.
    expect(sent.slice(3).map((s) => s.numbers)).toEqual([['Z1'], ['Z2']]);
    sent[0]!.answer([{ inserted: true, open: true, delivered: false }]);
    await tick();
    expect(sent[5]!.numbers).toEqual(['Y4', 'Y5']);
    for (const s of [sent[1]!, sent[2]!, sent[3]!, sent[4]!]) s.answer([{ inserted: true, open: true, delivered: false }]);
    sent[5]!.answer([{ inserted: ['Y4', 'Y5'], open: true, delivered: false }]);
    await Promise.all([...blockers, ...theirs, ...ours]);
  });
});
