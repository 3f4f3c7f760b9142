import { describe, expect, it } from 'vitest';
import { portalCall as portal, signUp } from './support/portal';

// The manifest builder's remembered column mapping: per account, merged by each import, refused with a
// 422 naming the field for anything but normalised headers and package field names, bounded in size.

const PATH = '/portal-api/import-mapping';

describe('GET|PUT /portal-api/import-mapping', () => {
  it("starts empty, merges imports (the latest wins a header), and is the account's in both environments", async () => {
    const [shipper, stranger] = await Promise.all([signUp('Mapping'), signUp('MappingStranger')]);
    expect((await portal(shipper, 'GET', PATH)).json).toEqual({ columns: {} });
    const first = await portal(shipper, 'PUT', PATH, {
      body: { columns: { trackingnumber: 'TrackingNumber', ref: 'ToAddress2', notes: '' } },
    });
    expect(first.status, first.text).toBe(200);
    const second = await portal(shipper, 'PUT', PATH, {
      body: { columns: { ref: 'ToName', gewichtkg: 'PackageWeight' } },
      env: 'live',
    });
    expect(second.json).toEqual({
      columns: { trackingnumber: 'TrackingNumber', ref: 'ToName', notes: '', gewichtkg: 'PackageWeight' },
    });
    expect((await portal(shipper, 'GET', PATH, { env: 'live' })).json).toEqual(second.json);
    expect((await portal(stranger, 'GET', PATH)).json).toEqual({ columns: {} });
    // Without the CSRF token or a session: refused, nothing written.
    expect((await portal(shipper, 'PUT', PATH, { body: { columns: { x: 'ToCity' } }, csrf: null })).status).toBe(403);
    expect((await portal(null, 'GET', PATH)).status).toBe(401);
    expect((await portal(shipper, 'GET', PATH)).json.columns).not.toHaveProperty('x');
  });

  it('two tabs importing at once both land', async () => {
    const shipper = await signUp('MappingTabs');
    const writes = Array.from({ length: 10 }, (_, i) =>
      portal(shipper, 'PUT', PATH, { body: { columns: { [`col${i}`]: 'ToCity' } } }),
    );
    expect((await Promise.all(writes)).map((w) => w.status)).toEqual(Array(10).fill(200));
    expect(Object.keys((await portal(shipper, 'GET', PATH)).json.columns).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `col${i}`).sort(),
    );
  });

  it('refuses hostile bodies with a 422 naming the field, never a 5xx', async () => {
    const shipper = await signUp('MappingHostile');
    const tooMany = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`c${i}`, 'ToCity']));
    const cases: [unknown, string][] = [
      [{}, 'columns'],
      [{ columns: [] }, 'columns'],
      [{ columns: { 'Not Normalised': 'ToCity' } }, 'columns.Not Normalised'],
      [{ columns: { a: 'NotAField' } }, 'columns.a'],
      [{ columns: { a: 'toString' } }, 'columns.a'],
      [{ columns: { a: 5 } }, 'columns.a'],
      [{ columns: { ['a'.repeat(101)]: 'ToCity' } }, `columns.${'a'.repeat(40)}`],
      [{ columns: { a: 'ToCity\u0000' } }, 'columns.a'],
      [{ columns: tooMany }, 'columns'],
      [{ columns: { a: 'ToCity' }, extra: 1 }, 'extra'],
    ];
    for (const [body, path] of cases) {
      const refused = await portal(shipper, 'PUT', PATH, { body });
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(refused.json.error.code).toBe('validation_failed');
      expect(
        refused.json.error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body).slice(0, 80),
      ).toContain(path);
    }
    // __proto__ as a header is data, not a prototype.
    const proto = await portal(shipper, 'PUT', PATH, { rawBody: '{"columns":{"__proto__":"ToCity","constructor":""}}' });
    expect([200, 422]).toContain(proto.status);
    expect((await portal(shipper, 'PUT', PATH, { rawBody: '{"columns":' })).status).toBe(400);
  });

  it("keeps at most 1,000 headers: past that, the latest import's mapping starts it again", async () => {
    const shipper = await signUp('MappingFull');
    for (let batch = 0; batch < 5; batch++) {
      const columns = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`b${batch}c${i}`, 'ToCity']));
      expect((await portal(shipper, 'PUT', PATH, { body: { columns } })).status).toBe(200);
    }
    expect(Object.keys((await portal(shipper, 'GET', PATH)).json.columns)).toHaveLength(1_000);
    const last = await portal(shipper, 'PUT', PATH, { body: { columns: { fresh: 'ToName' } } });
    expect(last.json).toEqual({ columns: { fresh: 'ToName' } });
  });
});
