import { randomBytes } from 'node:crypto';
import { containerSample, packageSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, screenshots, test, type Env } from '../fixtures';

// The close-out in the portal: "Close manifest" on a daily manifest's page asks first (Keep it closes the
// dialog and changes nothing), then closes it; the closed state shows on the page and in the manifests list; the
// day's next package opens a new manifest; a container has no Close button. In both environments. The Settings
// page saves the automatic cut-off and shows a refused time zone at its field.

const suffix = () => randomBytes(5).toString('hex').toUpperCase();

for (const env of ['test', 'live'] as Env[]) {
  test(`closes a daily manifest after a confirmation (${env})`, async ({ signedInPage: page, request }, testInfo) => {
    const api = authed(request, await createToken(page, `close-out ${env} ${Date.now()}`, env));
    const id = suffix();
    const date = env === 'test' ? '2026-12-01T08:00:00Z' : '2026-12-02T08:00:00Z';
    const first = await api.post(`${apiBase[env]}/wf/package`, packageSample(`CLOSE${id}A`, date));
    expect(first.status()).toBe(200);
    const manifestId = ((await first.json()) as { ManifestID: string }).ManifestID;
    expect((await api.post(`${apiBase[env]}/wf/package`, packageSample(`CLOSE${id}B`, date))).status()).toBe(200);

    await page.goto(`/${env}/manifests/${manifestId}`);
    const status = page.locator('[data-status]').first();
    await expect(status).toHaveAttribute('data-status', 'manifested');
    // Asked first; keeping it changes nothing.
    await page.getByRole('button', { name: 'Close manifest' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close this manifest?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('takes no more packages');
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect(dialog).toBeHidden();
    await expect(status).toHaveAttribute('data-status', 'manifested');

    await page.getByRole('button', { name: 'Close manifest' }).click();
    await dialog.getByRole('button', { name: 'Yes, close manifest' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', 'closed');
    await expect(page.getByText('Closed: this manifest takes no more packages')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close manifest' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel manifest' })).toHaveCount(0);
    if (env === 'test') await screenshots(page, testInfo, 'manifest-closed');

    // The API agrees, and the day's next package goes to a new manifest.
    const read = await api.get(`${apiBase[env]}/manifests/${manifestId}`);
    expect(((await read.json()) as { status: string }).status).toBe('closed');
    const next = await api.post(`${apiBase[env]}/wf/package`, packageSample(`CLOSE${id}C`, date));
    const nextId = ((await next.json()) as { ManifestID: string }).ManifestID;
    expect(nextId).not.toBe(manifestId);

    // The list shows both, each with its status.
    await page.goto(`/${env}/manifests?type=daily`);
    const closedRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: manifestId }) });
    await expect(closedRow.locator('[data-status]')).toHaveAttribute('data-status', 'closed');
    const openRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: nextId }) });
    await expect(openRow.locator('[data-status]')).toHaveAttribute('data-status', 'manifested');
  });
}

test('a container manifest has no Close button; a refused close shows its reason', async ({ signedInPage: page, request }) => {
  const api = authed(request, await createToken(page, `close-out container ${Date.now()}`, 'test'));
  const id = suffix();
  const created = await api.post(`${apiBase.test}/wf/manifest`, containerSample(`ULD-${id}`, [`CLOSEK${id}`]));
  expect(created.status()).toBe(200);
  const containerManifest = ((await created.json()) as { ManifestID: string }).ManifestID;
  await page.goto(`/test/manifests/${containerManifest}`);
  await expect(page.getByRole('button', { name: 'Cancel container' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close manifest' })).toHaveCount(0);

  // A daily manifest closed elsewhere (another tab, the cut-off) while this page still offers Close: the page
  // shows it closed after the answer (closing again is not an error).
  const pkg = await api.post(`${apiBase.test}/wf/package`, packageSample(`CLOSEL${id}`, '2026-12-03T08:00:00Z'));
  const dailyId = ((await pkg.json()) as { ManifestID: string }).ManifestID;
  await page.goto(`/test/manifests/${dailyId}`);
  await page.getByRole('button', { name: 'Close manifest' }).click();
  expect((await api.post(`${apiBase.test}/manifests/${dailyId}/cancel`, {})).status()).toBe(200);
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, close manifest' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText('Not closed: this manifest is cancelled');
});

test('the Settings page saves the automatic cut-off and shows a refused time zone at its field', async ({
  signedInPage: page,
}, testInfo) => {
  await page.goto('/test/settings');
  await expect(page.getByRole('heading', { name: 'Automatic close-out' })).toBeVisible();
  await expect(page.getByLabel('Cut-off hour')).toHaveValue('');
  await page.getByLabel('Cut-off hour').selectOption('17');
  await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
  await page.getByRole('form', { name: 'Automatic close-out' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('is not a time zone we know')).toBeVisible();
  await page.getByLabel('Time zone').fill('America/Chicago');
  await page.getByRole('form', { name: 'Automatic close-out' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved: closes at 17:00 America/Chicago.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Cut-off hour')).toHaveValue('17');
  await expect(page.getByLabel('Time zone')).toHaveValue('America/Chicago');
  // Live has its own setting.
  await page.goto('/live/settings');
  await expect(page.getByLabel('Cut-off hour')).toHaveValue('');
  await page.goto('/test/settings');
  await screenshots(page, testInfo, 'settings-close-out');
});
