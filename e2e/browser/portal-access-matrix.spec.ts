import { apiBase, authed, csrfToken, expect, portalApi, signUpThroughUi, test, uniqueUser } from '../fixtures';

// Every portal endpoint against every caller who must be refused: no session, a forged session
// cookie, the cookie of a session that was signed out, and another account's live session (which
// must get 404 for the owner's resources and see none of them in its lists), in either environment;
// the owner's own session in the other environment (live: the resources are test's) is refused as a
// stranger is, and a request that does not name its environment is a 400 whoever sends it.

const MARK = `owner-only-${Date.now().toString(36)}`;

test('every portal endpoint refuses strangers and leaks nothing', async ({ signedInPage: owner, freshPage: stranger, apiToken, request, browser }, testInfo) => {
  // The owner's resources: a container manifest, a webhook endpoint, a token.
  const api = authed(request, apiToken);
  const tracking = `ACL${Date.now().toString(36).toUpperCase()}`;
  const manifest = await api.post(`${apiBase.test}/wf/manifest`, {
    ServiceName: 'AirSkip', FromCompany: MARK, ContainerID: `ACL-${tracking}`, ContainerLength: 10, ContainerWidth: 10, ContainerHeight: 10,
    ShipmentDescription: MARK, ContainerDetails: [{ TrackingNumber: tracking, ToName: MARK }],
  });
  expect(manifest.status()).toBe(200);
  const manifestId = ((await manifest.json()) as { ManifestID: string }).ManifestID;
  const hook = await api.post(`${apiBase.test}/webhooks`, { url: 'http://127.0.0.1:1024/acl', events: ['package.sorting'], description: MARK });
  expect(hook.status()).toBe(201);
  const hookId = ((await hook.json()) as { id: string }).id;
  const tokens = (await (await portalApi(owner, 'GET', '/portal-api/tokens', undefined, 'test')).json()) as { tokens: { id: string }[] };
  const tokenId = tokens.tokens[0].id;

  const endpoints: [string, string, unknown?][] = [
    ['GET', '/portal-api/session'],
    ['GET', '/portal-api/dashboard'],
    ['GET', '/portal-api/rate-cards'],
    ['GET', '/portal-api/airports?q=jfk'],
    ['POST', '/portal-api/rates', { weight: 1, weight_unit: 'lb', length: 1, width: 1, height: 1, from_zip: '10001', to_zip: '10002' }],
    ['GET', '/portal-api/manifests'],
    ['GET', `/portal-api/manifests/${manifestId}`],
    ['GET', `/portal-api/manifests/${manifestId}/packages`],
    ['GET', `/portal-api/manifests/${manifestId}/export`],
    ['GET', `/portal-api/packages?tracking=${tracking}`],
    ['GET', '/portal-api/tokens'],
    ['DELETE', `/portal-api/tokens/${tokenId}`],
    ['GET', '/portal-api/webhooks'],
    ['GET', `/portal-api/webhooks/${hookId}`],
    ['PATCH', `/portal-api/webhooks/${hookId}`, { enabled: false }],
    ['GET', `/portal-api/webhooks/${hookId}/deliveries`],
    ['POST', `/portal-api/webhooks/${hookId}/test`, {}],
    ['POST', `/portal-api/webhooks/${hookId}/rotate-secret`, {}],
    ['POST', `/portal-api/webhooks/${hookId}/deliveries/msg_nothere/redeliver`, {}],
    ['DELETE', `/portal-api/webhooks/${hookId}`],
  ];

  // A session that was signed out: its cookie must be dead.
  const leaver = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const leaverPage = await leaver.newPage();
  await signUpThroughUi(leaverPage, uniqueUser('leaver'));
  const leaverCookie = (await leaver.cookies()).find((c) => c.name === 'carrier_session')!.value;
  const leaverCsrf = await csrfToken(leaverPage);
  expect((await portalApi(leaverPage, 'DELETE', '/portal-api/session')).status()).toBe(200);
  await leaver.close();

  for (const [label, cookie] of [
    ['no session', undefined],
    ['a forged session', 'carrier_session=Zm9yZ2VkLXNlc3Npb24tdmFsdWUtdGhhdC1kb2VzLW5vdC1leGlzdA'],
    ['a signed-out session', `carrier_session=${leaverCookie}`],
  ] as const) {
    for (const [method, path, body] of endpoints) {
      const response = await request.fetch(path, {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          'x-csrf-token': leaverCsrf,
          'x-carrier-environment': 'test',
          origin: testInfo.project.use.baseURL!,
        },
        data: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status(), `${label}: ${method} ${path}`).toBe(401);
      const text = await response.text();
      expect(JSON.parse(text).error.code, `${label}: ${method} ${path}`).toBe('unauthorized');
      expect(text).not.toContain(MARK);
    }
  }

  // Another account's session, with its own valid CSRF token, in either environment; and the owner's own
  // session in live, where none of these test resources exist.
  for (const [who, page, environment] of [
    ['stranger (test)', stranger, 'test'],
    ['stranger (live)', stranger, 'live'],
    ['owner (live)', owner, 'live'],
  ] as const) {
    for (const [method, path, body] of endpoints) {
      const response = await portalApi(page, method, path, body, environment);
      const text = await response.text();
      const ownersResource = [manifestId, hookId, tokenId, tracking].some((id) => path.includes(id));
      if (ownersResource && !path.startsWith('/portal-api/packages')) {
        expect(response.status(), `${who}: ${method} ${path}`).toBe(404);
      } else {
        expect(response.status(), `${who}: ${method} ${path}`).toBeLessThan(500);
      }
      expect(text, `${who}: ${method} ${path}`).not.toContain(MARK);
    }
  }

  // A request that does not say which environment it is for is refused, by any signed-in caller.
  for (const page of [owner, stranger]) {
    const csrf = await csrfToken(page);
    for (const [method, path, body] of endpoints) {
      const response = await page.request.fetch(path, {
        method,
        headers: { 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        data: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status(), `no environment: ${method} ${path}`).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text).error.code, `no environment: ${method} ${path}`).toBe('environment_required');
      expect(text).not.toContain(MARK);
    }
  }

  // Nothing the stranger attempted changed the owner's resources.
  const ownHook = await portalApi(owner, 'GET', `/portal-api/webhooks/${hookId}`, undefined, 'test');
  expect(ownHook.status()).toBe(200);
  expect(await ownHook.text()).toContain(MARK);
  const ownTokens = (await (await portalApi(owner, 'GET', '/portal-api/tokens', undefined, 'test')).json()) as { tokens: { id: string; revokedAt: string | null }[] };
  expect(ownTokens.tokens.find((t) => t.id === tokenId)).toHaveProperty('revokedAt', null);
  expect((await portalApi(owner, 'GET', `/portal-api/manifests/${manifestId}`, undefined, 'test')).status()).toBe(200);
  expect(await ownHook.json()).toMatchObject({ enabled: true });
});
