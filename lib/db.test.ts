import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { connectRidingOut, noteDatabaseError, plannedStopWithin } from './db-errors';

// Opening a connection rides out a planned primary change (PostgreSQL said it stops on purpose) and answers at once
// when the database went away without a word (a cut link, a crash).

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const client = {} as pg.PoolClient;

function failing(times: number) {
  let attempts = 0;
  return {
    connect: async () => {
      attempts += 1;
      if (attempts <= times) throw refused();
      return client;
    },
    attempts: () => attempts,
  };
}

describe('planned stops', () => {
  it('knows PostgreSQL saying it stops or starts on purpose, by code, by message and through a cause', () => {
    const t0 = 1_000_000;
    noteDatabaseError(refused(), t0);
    expect(plannedStopWithin(60_000, t0)).toBe(false);
    noteDatabaseError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), t0);
    expect(plannedStopWithin(60_000, t0 + 60_000)).toBe(true);
    expect(plannedStopWithin(60_000, t0 + 60_001)).toBe(false);
    noteDatabaseError(new Error('wrapped', { cause: new Error('the database system is starting up') }), t0 + 100_000);
    expect(plannedStopWithin(60_000, t0 + 100_000)).toBe(true);
    // A crash (57P02) is not planned.
    noteDatabaseError(
      Object.assign(new Error('terminating connection because of crash of another server process'), { code: '57P02' }),
      0,
    );
    expect(plannedStopWithin(60_000, t0 + 200_000)).toBe(false);
  });

  it('a database gone without a word: the first refusal is the answer, at once', async () => {
    const db = failing(100);
    const started = performance.now();
    await expect(connectRidingOut(db.connect)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(db.attempts()).toBe(1);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('after a planned stop, refusals are retried until the new primary answers', async () => {
    noteDatabaseError(Object.assign(new Error('the database system is shutting down'), { code: '57P03' }));
    const db = failing(3);
    await expect(connectRidingOut(db.connect)).resolves.toBe(client);
    expect(db.attempts()).toBe(4);
  });

  it('after a planned stop, a database still away after the ride-out is answered 503 then at once', async () => {
    noteDatabaseError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }));
    const db = failing(1_000);
    const started = performance.now();
    await expect(connectRidingOut(db.connect)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(4_900);
    const again = failing(1_000);
    await expect(connectRidingOut(again.connect)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(again.attempts()).toBe(1);
    // The database answers again: the next planned stop is ridden out afresh.
    await expect(connectRidingOut(failing(0).connect)).resolves.toBe(client);
  }, 15_000);
});
