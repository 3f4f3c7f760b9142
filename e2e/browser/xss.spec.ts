import { apiBase, authed, expect, test } from '../fixtures';

// Hostile text sent through the API in every free-text field a portal page shows — shipment
// descriptions, references, names, consignees, webhook descriptions — is rendered as text: no
// script runs, no element is injected, and the text itself is visible as sent.

const PAYLOAD = `<img src=x onerror="window.__xss=1"><svg onload="window.__xss=2"></svg><script>window.__xss=3</script>`;

test('hostile text in manifests, packages and webhooks renders inert', async ({ signedInPage: page, apiToken, request }) => {
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  const api = authed(request, apiToken);
  const stamp = Date.now().toString(36).toUpperCase();
  const tracking = `XSS${stamp}`;
  const container = await api.post(`${apiBase.test}/wf/manifest`, {
    ServiceName: `AirSkip ${PAYLOAD}`.slice(0, 100),
    FromCompany: PAYLOAD,
    FromName: PAYLOAD,
    ContainerID: `XSS-${stamp}`,
    ContainerLength: 10,
    ContainerWidth: 10,
    ContainerHeight: 10,
    ShipmentDescription: PAYLOAD,
    Consignee: PAYLOAD,
    Reference1: PAYLOAD,
    Reference4: PAYLOAD,
    ContainerDetails: [
      { TrackingNumber: tracking, ToName: PAYLOAD, ToAddress1: PAYLOAD, PackageWeight: 1, PackageWeightUnit: 'lb' },
    ],
  });
  expect(container.status(), await container.text()).toBe(200);
  const manifestId = ((await container.json()) as { ManifestID: string }).ManifestID;
  const hook = await api.post(`${apiBase.test}/webhooks`, {
    url: 'http://127.0.0.1:1024/xss',
    events: ['package.sorting'],
    description: PAYLOAD,
  });
  expect(hook.status(), await hook.text()).toBe(201);
  const hookId = ((await hook.json()) as { id: string }).id;

  for (const path of ['/dashboard', '/manifests', `/manifests/${manifestId}`, '/webhooks', `/webhooks/${hookId}`].map(
    (p) => `/test${p}`,
  )) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    // Lists show ids and the service name (which the payload was cut into); details show it whole.
    if (path.split('/').length > 3) await expect(page.getByText(PAYLOAD).first(), path).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), path).toBeUndefined();
    expect(await page.locator('main img[src="x"], main svg[onload], main script:not([src]):not([nonce])').count(), path).toBe(0);
  }
  // The package's own page, where every field it was sent with is shown.
  await page.goto(`/test/packages/${encodeURIComponent(tracking)}`);
  await expect(page.getByText(PAYLOAD).first()).toBeVisible();
  expect(await page.locator('main img[src="x"], main svg[onload], main script:not([src]):not([nonce])').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toBe(0);
});
