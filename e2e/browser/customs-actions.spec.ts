import type { APIRequestContext, Page } from '@playwright/test';
import { euContainerSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, portalApi, test } from '../fixtures';
import { uid } from './fixtures/manifests';
import { addMember } from './fixtures/members';
import { lookAt } from '../axe';

// The customs actions the portal offers: offloading a house customs holds (package page) and amending a container's
// air cargo header (manifest page), with readiness following. Scanned by axe and photographed at 1440 and 390 px.

/** A container to Germany of three houses whose header lacks the flight (not ready for ICS2), the second held. */
async function heldContainer(page: Page, request: APIRequestContext, label: string) {
  const api = authed(request, await createToken(page, label));
  const id = uid('CAX');
  const houses = [`${id}-1`, `${id}-2`, `${id}-3`];
  const body = { ...euContainerSample(id, houses), FlightNumber: undefined, FlightDate: undefined };
  const created = await api.post(`${apiBase.test}/wf/manifest`, body);
  expect(created.status(), await created.text()).toBe(200);
  const manifestId = ((await created.json()) as { ManifestID: string }).ManifestID;
  const held = await api.post(`${apiBase.test}/packages/${houses[1]}/simulate`, { customs: 'do_not_load' });
  expect(held.status(), await held.text()).toBe(200);
  return { api, manifestId, houses };
}

/** Counts the portal requests of `method` to paths ending in `suffix`, from now on. */
function countRequests(page: Page, method: string, suffix: RegExp) {
  const seen: { body: unknown }[] = [];
  page.on('request', (r) => {
    if (r.method() === method && suffix.test(new URL(r.url()).pathname)) seen.push({ body: r.postDataJSON() as unknown });
  });
  return seen;
}

const placiCard = (page: Page) =>
  page
    .getByRole('region', { name: 'Customs' })
    .getByRole('heading', { name: /PLACI/, level: 3 })
    .locator('xpath=ancestor::div[contains(@class, "rounded-lg")][1]');

test('a held house offloaded from its container, then the air cargo header amended, readiness following', async ({
  freshPage: page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const { api, manifestId, houses } = await heldContainer(page, request, 'customs-actions');

  // The manifest page names the held house; the container is not ready for ICS2 (no flight).
  await page.goto(`/test/manifests/${manifestId}`);
  const customs = page.getByRole('region', { name: 'Customs' });
  await expect(customs.getByText('1 package is on Do Not Load')).toBeVisible();
  await expect(placiCard(page).getByText('Not ready', { exact: true })).toBeVisible();

  // A house customs does not hold is not offered the offload.
  await page.goto(`/test/packages/${houses[0]}`);
  await expect(page.getByRole('heading', { name: `Package ${houses[0]}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Offload from container' })).toHaveCount(0);

  // The held one is; the dialog says what happens, and is checked and photographed open.
  const offloads = countRequests(page, 'POST', /\/offload$/);
  await page.goto(`/test/packages/${houses[1]}`);
  await page.getByRole('button', { name: 'Offload from container' }).click();
  const dialog = page.getByRole('dialog', { name: 'Offload this package from its container?' });
  await expect(dialog).toContainText('the rest of the container departs without it');
  await expect(dialog).toContainText('stays on the ground with you, the shipper');
  await lookAt(page, testInfo, 'offload-dialog');
  await dialog.getByRole('button', { name: 'Yes, offload it' }).dblclick();
  await expect(dialog).toBeHidden();
  const timeline = page.getByRole('list', { name: 'Events' });
  await expect(timeline.getByText('Offloaded from its container (held by customs)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Offload from container' })).toHaveCount(0);
  expect(offloads).toHaveLength(1);
  await lookAt(page, testInfo, 'offloaded-package');

  // The container no longer waits for it; the header is amended, one refused value shown at its field first.
  await page.goto(`/test/manifests/${manifestId}`);
  await expect(customs.getByText('on Do Not Load')).toHaveCount(0);
  const amend = page.getByRole('region', { name: 'Amend air cargo header' });
  await amend.getByRole('button', { name: 'Amend air cargo header' }).click();
  const form = page.getByRole('form', { name: 'Amend air cargo header' });
  await expect(form.getByLabel('Origin airport')).toHaveValue('JFK');
  await expect(form.getByLabel('Destination airport')).toHaveValue('FRA');
  await expect(form.getByLabel('Flight number')).toHaveValue('');
  const patches = countRequests(page, 'PATCH', new RegExp(`/manifests/${manifestId}$`));
  await form.getByLabel('Flight number').fill('LH401');
  await form.getByLabel('Flight date').fill('2026-11-24');
  await form.getByLabel('Air waybill (AWB)').fill('020-12345670'); // its check digit is 5
  await form.getByRole('button', { name: 'Save changes' }).click();
  const awb = form.getByLabel('Air waybill (AWB)');
  await expect(awb).toHaveAttribute('aria-invalid', 'true');
  await expect(awb).toHaveAccessibleDescription(/check digit/i);
  await expect(awb).toBeFocused();
  expect(patches.map((p) => Object.keys(p.body as object).sort())).toEqual([['AWB', 'FlightDate', 'FlightNumber']]);
  await expect(placiCard(page).getByText('Not ready', { exact: true })).toBeVisible();
  await lookAt(page, testInfo, 'amend-refused');

  await awb.fill('020-12345675');
  await form.getByRole('button', { name: 'Save changes' }).dblclick();
  await expect(form.getByRole('status')).toContainText('Saved: Air waybill (AWB), Flight number, Flight date');
  expect(patches).toHaveLength(2);
  await expect(placiCard(page).getByText('Ready', { exact: true })).toBeVisible();
  await expect(form.getByLabel('Flight number')).toHaveValue(/^LH ?401$/);
  await lookAt(page, testInfo, 'amended');

  // Nothing changed: nothing sent.
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByRole('alert')).toContainText('Nothing changed');
  expect(patches).toHaveLength(2);

  // Once the container departed, the form is not offered and the page says why.
  const departed = await api.post(`${apiBase.test}/manifests/${manifestId}/simulate`, { status: 'departed' });
  expect(departed.status(), await departed.text()).toBe(200);
  await page.reload();
  await expect(amend).toContainText('can no longer be amended');
  await expect(amend.getByRole('button', { name: 'Amend air cargo header' })).toHaveCount(0);
  await lookAt(page, testInfo, 'amend-after-departure');
});

test('careless clicks: cancelling the offload dialog changes nothing', async ({ freshPage: page, request }) => {
  test.setTimeout(180_000);
  const { api, houses } = await heldContainer(page, request, 'customs-cancel');
  const offloads = countRequests(page, 'POST', /\/offload$/);
  await page.goto(`/test/packages/${houses[1]}`);
  const open = page.getByRole('button', { name: 'Offload from container' });
  const dialog = page.getByRole('dialog', { name: 'Offload this package from its container?' });

  await open.click();
  await dialog.getByRole('button', { name: 'Keep it in the container' }).click();
  await expect(dialog).toBeHidden();
  // Escape closes it as well.
  await open.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  expect(offloads).toHaveLength(0);
  await expect(open).toBeVisible();
  const pkg = (await (await api.get(`${apiBase.test}/packages/${houses[1]}`)).json()) as { offloaded_at?: string };
  expect(pkg.offloaded_at).toBeUndefined();
});

test('a viewer is not offered the offload or the amendment, and is told why', async ({
  freshPage: page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const { manifestId, houses } = await heldContainer(page, request, 'customs-viewer');
  const session = (await (await portalApi(page, 'GET', '/portal-api/session', undefined, 'test')).json()) as {
    account: { id: string };
  };
  const user = await addMember(session.account.id, 'viewer');
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const viewer = await context.newPage();
  await viewer.goto('/sign-in');
  await viewer.getByLabel('E-mail').fill(user.email);
  await viewer.getByLabel('Password').fill(user.password);
  await viewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(viewer).toHaveURL(/\/test\/dashboard$/, { timeout: 30_000 });

  await viewer.goto(`/test/packages/${houses[1]}`);
  await expect(viewer.getByRole('heading', { name: `Package ${houses[1]}` })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Offload from container' })).toHaveCount(0);
  await expect(viewer.getByTestId('role-note')).toContainText('Your role (viewer) cannot cancel, offload or simulate packages');

  await viewer.goto(`/test/manifests/${manifestId}`);
  const amend = viewer.getByRole('region', { name: 'Amend air cargo header' });
  await expect(amend.getByTestId('role-note')).toContainText('Your role (viewer) cannot amend the air cargo header');
  await expect(amend.getByRole('button', { name: 'Amend air cargo header' })).toHaveCount(0);
  await context.close();
});
