import { containerSample, packageSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, portalApi, settle, signUpThroughUi, test, uniqueUser } from '../fixtures';
import { axeFindings, axeViolations, FAILING_IMPACTS, referenceRepeatedCards } from '../axe';

// axe-core on every page of the portal at 1440 and 390 px wide: no violation of WCAG 2.1 A and AA nor of
// axe's best practices (landmarks, headings, regions) rated moderate, serious or critical. Minor findings are
// attached to the report, not failed on. Pages with data are scanned with data (a container, a package, a webhook endpoint), and the
// sign-in and sign-up pages signed out.

const WIDTHS = [1440, 390] as const;
const minor: string[] = [];

interface Found {
  page: string;
  width: number;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

async function scan(page: import('@playwright/test').Page, label: string, found: Found[], contrastExcept: string[] = []) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await settle(page);
    for (const v of await axeViolations(page, { contrastExcept })) {
      if (!v.impact || !FAILING_IMPACTS.has(v.impact)) {
        minor.push(`${label} at ${width}: ${v.id}`);
        continue;
      }
      found.push({
        page: label,
        width,
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe('accessibility', () => {
  test('account with two sessions, rates with quotes, members mid-change, webhooks with health: 0 serious, 0 moderate', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(300_000);
    const baseURL = testInfo.project.use.baseURL;
    const user = uniqueUser('axe');
    const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUpThroughUi(page, user);
    // A second session, so that the account page lists one to revoke beside this one.
    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    await otherPage.goto('/sign-in');
    await otherPage.getByLabel('E-mail').fill(user.email);
    await otherPage.getByLabel('Password').fill(user.password);
    await otherPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(otherPage).toHaveURL(/\/test\/dashboard$/, { timeout: 30_000 });
    await other.close();
    const found: string[] = [];

    await page.goto('/test/account');
    await expect(page.getByTestId('session-row')).toHaveCount(2);
    await expect(page.getByRole('button', { name: /^Revoke / })).toHaveCount(1);
    found.push(...(await axeFindings(page, 'account')));

    await page.goto('/test/rates');
    await page.getByLabel('Weight', { exact: false }).first().fill('2');
    await page.getByLabel('Length').fill('10');
    await page.getByLabel('Width').fill('8');
    await page.getByLabel('Height').fill('4');
    await page.getByLabel('From ZIP').fill('10001');
    await page.getByLabel('To ZIP').fill('60601');
    found.push(...(await axeFindings(page, 'rates')));
    await page.getByRole('button', { name: 'Get rates' }).click();
    await expect(page.getByTestId('quote-row').first()).toBeVisible();
    found.push(...(await axeFindings(page, 'rates with quotes')));

    await page.goto('/test/members');
    await page.getByRole('combobox', { name: `Role of ${user.email}` }).selectOption('admin');
    await expect(page.getByRole('button', { name: /^Change role of/ })).toBeVisible();
    found.push(...(await axeFindings(page, 'members, a role chosen')));

    const hook = await portalApi(page, 'POST', '/portal-api/webhooks', {
      url: 'http://127.0.0.1:9999/hooks/axe',
      events: ['package.sorting'],
    });
    expect(hook.ok(), await hook.text()).toBe(true);
    await page.goto('/test/webhooks');
    await expect(page.getByTestId('endpoint-health')).toBeVisible();
    found.push(...(await axeFindings(page, 'webhooks')));

    await page.goto('/test/dashboard');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    found.push(...(await axeFindings(page, 'dashboard')));
    await context.close();
    expect(found).toEqual([]);
  });

  test('every portal page, with data, at both widths: no moderate, serious or critical axe violation', async ({
    freshPage: page,
    request,
    browser,
  }, testInfo) => {
    // 28 pages at two widths: 100-160 s on two loaded cores, the API reference a quarter of it.
    test.setTimeout(480_000);
    const suffix = Date.now().toString(36).toUpperCase();
    const token = await createToken(page, 'a11y');
    const api = authed(request, token);
    const container = await api.post(
      `${apiBase.test}/wf/manifest`,
      containerSample(`A11Y-${suffix}`, [`A11YC${suffix}1`, `A11YC${suffix}2`]),
    );
    expect(container.status()).toBe(200);
    const manifestId = ((await container.json()) as { ManifestID: string }).ManifestID;
    const containerRequestId = container.headers()['x-request-id'] ?? '';
    expect((await api.post(`${apiBase.test}/wf/package`, packageSample(`A11YP${suffix}`))).status()).toBe(200);
    // A live package, for its public tracking page.
    const live = authed(request, await createToken(page, 'a11y live', 'live'));
    expect((await live.post(`${apiBase.live}/wf/package`, packageSample(`A11YL${suffix}`))).status()).toBe(200);
    const hook = await portalApi(page, 'POST', '/portal-api/webhooks', {
      url: 'http://127.0.0.1:9999/hooks/a11y',
      events: ['package.sorting'],
      description: 'a11y',
    });
    expect(hook.ok(), await hook.text()).toBe(true);
    const hookId = ((await hook.json()) as { id: string }).id;

    const found: Found[] = [];
    const pages: [string, string, () => Promise<void>][] = [
      [
        'dashboard',
        '/test/dashboard',
        async () => void (await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()),
      ],
      ['rates', '/test/rates', async () => void (await expect(page.getByRole('button', { name: 'Get rates' })).toBeVisible())],
      [
        'manifests',
        '/test/manifests',
        async () => void (await expect(page.getByRole('link', { name: manifestId })).toBeVisible()),
      ],
      [
        'manifest',
        `/test/manifests/${manifestId}`,
        async () => void (await expect(page.getByText(`A11YC${suffix}1`)).toBeVisible()),
      ],
      ['new manifest', '/test/manifests/new', async () => void (await expect(page.getByRole('grid')).toBeVisible())],
      ['packages', '/test/packages', async () => void (await expect(page.getByText(`A11YP${suffix}`)).toBeVisible())],
      [
        'package',
        `/test/packages/A11YP${suffix}`,
        async () => void (await expect(page.getByText(`A11YP${suffix}`).first()).toBeVisible()),
      ],
      [
        'webhooks',
        '/test/webhooks',
        async () => void (await expect(page.getByText('http://127.0.0.1:9999/hooks/a11y')).toBeVisible()),
      ],
      [
        'webhook',
        `/test/webhooks/${hookId}`,
        async () => void (await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible()),
      ],
      ['logs', '/test/logs', async () => void (await expect(page.getByRole('region', { name: 'Requests' })).toBeVisible())],
      [
        'request',
        `/test/logs/${containerRequestId}`,
        async () => void (await expect(page.getByRole('heading', { name: 'POST /wf/manifest' })).toBeVisible()),
      ],
      ['tokens', '/test/tokens', async () => void (await expect(page.getByText('a11y')).toBeVisible())],
      [
        'rate cards',
        '/test/rate-cards',
        async () => void (await expect(page.getByRole('heading', { name: /Rate cards/ })).toBeVisible()),
      ],
      [
        'settings',
        '/test/settings',
        async () => void (await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible()),
      ],
      ['account', '/test/account', async () => void (await expect(page.getByTestId('session-row')).toHaveCount(1))],
      [
        'docs',
        '/test/docs',
        async () => void (await expect(page.getByRole('heading', { name: /API reference/ }).first()).toBeVisible()),
      ],
      [
        'not found',
        '/test/no-such-page',
        async () => void (await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()),
      ],
    ];
    for (const [label, path, ready] of pages) {
      await page.goto(path);
      await ready();
      // The reference's colour contrast on its chrome and one card of each kind (e2e/axe.ts, axeViolations).
      await scan(page, label, found, path === '/test/docs' ? await referenceRepeatedCards(page) : []);
    }
    // Signed out: the auth pages, the public tracking pages and the site's not-found page.
    const anonymous = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const outside = await anonymous.newPage();
    for (const [label, path] of [
      ['sign in', '/sign-in'],
      ['sign up', '/sign-up'],
      ['forgot password', '/forgot-password'],
      ['reset link refused', '/reset-password?token=not-a-token'],
      ['sign-up link refused', '/verify-email?token=not-a-token'],
      ['outbox', '/dev/outbox'],
      ['track', '/track'],
      ['tracked package', `/track/A11YL${suffix}?postal_code=90210`],
      ['track, no such package', '/track/NOSUCH1?postal_code=90210'],
      ['unsubscribe link refused', '/unsubscribe?token=not-a-token'],
      ['site not found', '/nowhere'],
    ] as const) {
      await outside.goto(path);
      await scan(outside, label, found);
    }
    await anonymous.close();
    await testInfo.attach('axe-violations.json', {
      body: JSON.stringify({ found, minor }, null, 2),
      contentType: 'application/json',
    });
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  });
});
