import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { containerSample, packageSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, portalApi, screenshots, test } from '../fixtures';

interface Dashboard {
  totals: { packages: number; manifests: number };
  webhooks: { attempts: number; succeeded: number; successRate: number | null };
}

/** A local webhook receiver that answers 204 to everything. */
async function receiver(): Promise<{ server: Server; url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

test.describe('dashboard', () => {
  test('starts empty, then shows API activity, recent items and the webhook success rate', async ({
    freshPage: page,
    request,
  }, testInfo) => {
    await page.goto('/test/dashboard');
    await expect(page.getByText('No test activity in the last 30 days')).toBeVisible();
    await expect(page.getByText('No webhook deliveries yet')).toBeVisible();
    await screenshots(page, testInfo, 'dashboard-empty');

    const token = await createToken(page, 'dashboard');
    const api = authed(request, token);
    const hook = await receiver();
    try {
      const created = await api.post(`${apiBase.test}/webhooks`, { url: hook.url, events: ['package.sorting'] });
      expect(created.status(), await created.text()).toBe(201);

      const suffix = Date.now().toString(36).toUpperCase();
      for (const n of [1, 2, 3]) {
        const response = await api.post(`${apiBase.test}/wf/package`, packageSample(`DASH${suffix}${n}`));
        expect(response.status(), await response.text()).toBe(200);
      }
      const manifest = await api.post(
        `${apiBase.test}/wf/manifest`,
        containerSample(`DASH-C-${suffix}`, [`DASHC${suffix}1`, `DASHC${suffix}2`]),
      );
      expect(manifest.status(), await manifest.text()).toBe(200);

      // Deliveries run in the background; wait until they are logged.
      await expect
        .poll(
          async () => ((await (await portalApi(page, 'GET', '/portal-api/dashboard')).json()) as Dashboard).webhooks.attempts,
          { timeout: 45_000 },
        )
        .toBeGreaterThanOrEqual(3);
      const dashboard = (await (await portalApi(page, 'GET', '/portal-api/dashboard')).json()) as Dashboard;
      // The chart's totals count the container's 2 packages too, as the headline does.
      expect(dashboard.totals).toEqual({ packages: 5, manifests: 1 });
      expect(dashboard.webhooks.successRate).toBe(1);
      expect(hook.received.length).toBeGreaterThanOrEqual(3);
    } finally {
      hook.server.close();
    }

    await page.goto('/test/dashboard');
    // The stat's own value (the line after its label), whole: the label itself says "30".
    const stat = (label: string) => page.getByText(label, { exact: true }).locator('xpath=following-sibling::p[1]');
    // Every package, container and daily: 3 daily and the container's 2.
    await expect(stat('Packages, last 30 days')).toHaveText('5');
    await expect(stat('Container manifests, last 30 days')).toHaveText('1');
    await expect(stat('Webhook success rate')).toHaveText('100%');
    await expect(page.getByTestId('recent-activity')).toContainText(/Container DASH-C-/);
    await expect(page.getByTestId('recent-activity')).toContainText(/Package DASH/);
    await expect(page.locator('.recharts-surface').first()).toBeVisible();
    await screenshots(page, testInfo, 'dashboard-activity');

    // The same account's live environment has none of it.
    await page.getByTestId('env-live').click();
    await expect(page.getByText('No live activity in the last 30 days')).toBeVisible();
  });

  test("the chart's bars count what the headline counts (containers' packages too), with thousands separators", async ({
    freshPage: page,
    request,
  }, testInfo) => {
    test.setTimeout(180_000);
    const token = await createToken(page, 'dashboard-counts');
    const api = authed(request, token);
    const suffix = Date.now().toString(36).toUpperCase();
    const tracking = Array.from({ length: 1_200 }, (_, i) => `DSEP${suffix}${String(i).padStart(4, '0')}`);
    const manifest = await api.post(`${apiBase.test}/wf/manifest`, containerSample(`DSEP-${suffix}`, tracking));
    expect(manifest.status(), await manifest.text()).toBe(200);
    const daily = await api.post(`${apiBase.test}/wf/package`, packageSample(`DSEPD${suffix}`));
    expect(daily.status(), await daily.text()).toBe(200);

    await page.goto('/test/dashboard');
    const stat = (label: string) => page.getByText(label, { exact: true }).locator('xpath=following-sibling::p[1]');
    await expect(stat('Packages, last 30 days')).toHaveText('1,201');
    await expect(page.getByTestId('packages-all')).toHaveText('1,201');
    // Today's bar, as its text alternative reads it: the container's 1,200 and the daily package.
    const today = new Date().toISOString().slice(0, 10);
    await expect(page.getByTestId('activity-chart')).toContainText(`${today}: 1,201 packages, 1 manifests`);
    await expect(page.getByTestId('recent-activity')).toContainText('1,200 packages');
    // The y axis too: its top tick is over a thousand, written with a separator.
    await expect(
      page
        .getByTestId('activity-chart')
        .locator('svg text')
        .filter({ hasText: /^\d{1,3}(,\d{3})+$/ })
        .first(),
    ).toBeVisible();
    await screenshots(page, testInfo, 'dashboard-thousands');
  });
});
