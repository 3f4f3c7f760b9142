import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import { SAMPLE_JPEG, SAMPLE_PNG } from '@/lib/branding/logo-samples';
import { baseUrl, call, freshClientAddress, tracking } from './support/api';
import { addMember, portalCall, signUp, type PortalAnswer, type Shipper } from './support/portal';
import { packageSample } from './support/samples';

// The shipper's branding (PUT /portal-api/settings/branding): an accent colour and a logo checked by its bytes,
// shown on the public tracking page of that shipper's live packages only. Every bad input is a 422 naming the field.

const PATH = '/portal-api/settings/branding';
let owner: Shipper;
let other: Shipper;

beforeAll(async () => {
  [owner, other] = await Promise.all([signUp('Branding'), signUp('Unbranded')]);
});

const put = (who: Shipper, body: unknown) => portalCall(who, 'PUT', PATH, { body });

async function livePackagePage(who: Shipper): Promise<string> {
  const number = tracking('BR');
  const created = await call('/wf/package', { env: 'live', token: who.tokens.live, body: packageSample(number) });
  expect(created.status, created.text).toBe(200);
  const url: string = (await call(`/packages/${number}`, { env: 'live', method: 'GET', token: who.tokens.live })).json
    .tracking_url;
  const page = await fetch(`${baseUrl}${new URL(url).pathname}`, { headers: { 'x-forwarded-for': freshClientAddress() } });
  expect(page.status).toBe(200);
  return page.text();
}

function expectRefused(answer: PortalAnswer, path: string, message?: RegExp) {
  expect(answer.status, answer.text).toBe(422);
  const detail = answer.json.error.details.find((d: { path: string }) => d.path === path);
  expect(detail, answer.text).toBeDefined();
  if (message) expect(detail.message).toMatch(message);
}

describe('branding', () => {
  it('none at first; a PNG logo and an accent colour saved, read back, audited, and shown on the live tracking page', async () => {
    expect((await portalCall(owner, 'GET', PATH)).json).toEqual({ accent_color: null, logo: null, updated_at: null });
    const saved = await put(owner, { accent_color: '#1D4ED8', logo: { name: 'logo.png', content_base64: SAMPLE_PNG } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toMatchObject({
      accent_color: '#1d4ed8',
      logo: { name: 'logo.png', type: 'image/png', bytes: Buffer.from(SAMPLE_PNG, 'base64').length },
    });
    expect(saved.json.logo.data_url).toBe(`data:image/png;base64,${SAMPLE_PNG}`);
    expect((await portalCall(owner, 'GET', PATH, { env: 'live' })).json).toEqual(saved.json);
    const audit = await queryRow(
      pgPool(),
      sql<{ details: Record<string, unknown> }>`SELECT details FROM audit_events
       WHERE account_id = ${owner.accountId}::uuid AND target_id = 'branding' ORDER BY occurred_at DESC, id DESC LIMIT 1`,
    );
    expect(audit?.details).toMatchObject({ accent_color: '#1d4ed8', logo: 'logo.png' });

    const html = await livePackagePage(owner);
    expect(html).toContain('data-testid="shipper-branding"');
    expect(html).toContain(`data:image/png;base64,${SAMPLE_PNG}`);
    expect(html).toMatch(/background-color:\s*#1d4ed8/);
    // Another shipper's package page shows none of it.
    const theirs = await livePackagePage(other);
    expect(theirs).not.toContain('shipper-branding');
    expect(theirs).not.toContain(SAMPLE_PNG);
  });

  it('a field left out is kept, null removes it; a JPEG replaces the PNG', async () => {
    await put(owner, { accent_color: '#000000', logo: { name: 'a.png', content_base64: SAMPLE_PNG } });
    const jpeg = await put(owner, { logo: { name: 'photo.jpg', content_base64: SAMPLE_JPEG } });
    expect(jpeg.json).toMatchObject({ accent_color: '#000000', logo: { name: 'photo.jpg', type: 'image/jpeg' } });
    const noColour = await put(owner, { accent_color: null });
    expect(noColour.json).toMatchObject({ accent_color: null, logo: { name: 'photo.jpg' } });
    const none = await put(owner, { logo: null });
    expect(none.json).toMatchObject({ accent_color: null, logo: null });
    expect(await livePackagePage(owner)).not.toContain('shipper-branding');
  });

  it('refuses hostile uploads by their bytes: oversized, wrong magic bytes, SVG, polyglots, damaged', async () => {
    const png = Buffer.from(SAMPLE_PNG, 'base64');
    const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
    const cases: [string, string, RegExp][] = [
      ['oversized', b64(Buffer.concat([png, Buffer.alloc(256 * 1024)])), /at most 262,144/],
      ['named .png, is a GIF', b64('GIF89a\u0001\u0000\u0001\u0000'), /neither a PNG nor a JPEG/],
      ['SVG with script', b64('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), /SVG/],
      ['PNG then HTML', b64(Buffer.concat([png, Buffer.from('<script>alert(1)</script>')])), /after the end/],
      ['JPEG then ZIP', b64(Buffer.concat([Buffer.from(SAMPLE_JPEG, 'base64'), Buffer.from('PK\u0003\u0004')])), /after the end/],
      ['cut short', b64(png.subarray(0, png.length - 6)), /whole PNG|checksum/],
      ['empty', '', /empty/],
      ['not base64', '!!!!', /base64/],
    ];
    for (const [label, content, message] of cases) {
      expectRefused(await put(owner, { logo: { name: 'logo.png', content_base64: content } }), 'logo.content_base64', message);
      void label;
    }
    // Far past the limit: refused by the schema (or the body limit) before anything is decoded.
    const huge = await put(owner, { logo: { name: 'logo.png', content_base64: 'A'.repeat(600_000) } });
    expect([413, 422]).toContain(huge.status);
    // Nothing was stored by any of them.
    expect((await portalCall(owner, 'GET', PATH)).json.logo).toBeNull();
  });

  it('refuses bad names and colours, naming the field, and never a 5xx', async () => {
    for (const name of ['lo\u0000go.png', '', 'x'.repeat(101), '../logo.png', '\ud800.png', 'logo\u202Egnp.exe'])
      expectRefused(await put(owner, { logo: { name, content_base64: SAMPLE_PNG } }), 'logo.name');
    for (const colour of ['red', '#12345', '#1234567', '#GGGGGG', '1d4ed8', '#1d4ed8\u0000', 12, true])
      expectRefused(await put(owner, { accent_color: colour }), 'accent_color');
    expectRefused(await put(owner, {}), 'accent_color');
    const unknown = await put(owner, { accent_color: '#111111', logo_url: 'https://evil.example/x.svg' });
    expect(unknown.status).toBe(422);
    const lone = await portalCall(owner, 'PUT', PATH, { rawBody: '{"accent_color":"#\\ud800abcd"}' });
    expect(lone.status).toBe(422);
  });

  it('only owners and admins change it; a viewer reads it; without CSRF or a session it is refused', async () => {
    const viewer = await addMember(owner, 'viewer');
    expect((await portalCall(viewer, 'GET', PATH)).status).toBe(200);
    expect((await put(viewer, { accent_color: '#222222' })).status).toBe(403);
    expect((await portalCall(owner, 'PUT', PATH, { body: { accent_color: '#222222' }, csrf: null })).status).toBe(403);
    expect((await portalCall(null, 'PUT', PATH, { body: { accent_color: '#222222' } })).status).toBe(401);
  });

  it('concurrent saves leave one whole setting, never a mix of a logo and another save’s name', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        put(owner, {
          accent_color: `#00000${i}`,
          logo: { name: `l${i}.${i % 2 ? 'jpg' : 'png'}`, content_base64: i % 2 ? SAMPLE_JPEG : SAMPLE_PNG },
        }),
      ),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const now = (await portalCall(owner, 'GET', PATH)).json;
    const i = Number(now.accent_color.slice(-1));
    expect(now.logo).toMatchObject({ name: `l${i}.${i % 2 ? 'jpg' : 'png'}`, type: i % 2 ? 'image/jpeg' : 'image/png' });
  });
});
