import type { Browser, Page, TestInfo } from '@playwright/test';
import { apiBase, authed, createToken, expect, portalApi, portalUrl, screenshots, test, type Account } from '../fixtures';
import { uid } from './fixtures/manifests';
import { packageBody } from './fixtures/packages';
import { axeFindings, axeScan, FAILING_IMPACTS } from '../axe';

// What every portal page shares: the grouped navigation (one line on a desktop, a menu on a phone, by keyboard too),
// times in the reader's own time zone (named; UTC on hover, or UTC throughout as a setting), a dark mode that follows
// the system with AA contrast, and a package's details in words with their units.

async function contextPage(
  browser: Browser,
  account: Account,
  testInfo: TestInfo,
  options: { timezoneId?: string; colorScheme?: 'light' | 'dark'; width?: number } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    viewport: { width: options.width ?? 1440, height: 900 },
    storageState: account.storageState,
    timezoneId: options.timezoneId,
    colorScheme: options.colorScheme,
  });
  return context.newPage();
}

/** React's hydration failures (minified in production: #418, #423, #425) and page errors, as they happen. */
function watchHydration(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|#418|#423|#425/i.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function dailyPackage(page: Page, overrides: Record<string, unknown> = {}): Promise<string> {
  const tn = uid('TZ').replace(/-/g, '').toUpperCase();
  const token = await createToken(page, `chrome ${tn}`);
  const response = await authed(page.request, token).post(`${apiBase.test}/wf/package`, packageBody(tn, overrides));
  expect(response.status(), await response.text()).toBe(200);
  return tn;
}

test.describe('portal chrome', () => {
  test('the navigation is grouped: one line at 1280 and 1440 px, menus by mouse and keyboard, a menu on a phone', async ({
    signedInPage: page,
  }, testInfo) => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(portalUrl('test', '/dashboard'));
      const entries = nav.locator(':scope > ul > li');
      await expect(entries).toHaveCount(5);
      await expect(nav.locator(':scope > ul > li').getByText('Dashboard', { exact: true })).toBeVisible();
      const tops = await entries.evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
      expect(new Set(tops).size, `entries' tops at ${width}: ${tops.join(', ')}`).toBe(1);
      // The header is one bar: the logo, the navigation and the environment switch share a line.
      const header = await page.locator('header > div').last().boundingBox();
      expect(header?.height ?? 0).toBeLessThan(64);
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // A group opens on a click and shows its links; the page's own group is marked.
    const shipping = nav.getByRole('button', { name: 'Shipping' });
    await expect(shipping).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Packages', exact: true })).toBeHidden();
    await shipping.click();
    await expect(shipping).toHaveAttribute('aria-expanded', 'true');
    for (const label of ['Rates', 'Manifests', 'New manifest', 'Packages', 'Pickups', 'Rate cards']) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await screenshots(page, testInfo, 'nav-shipping-open', async () => {
      if ((await shipping.isVisible()) && (await shipping.getAttribute('aria-expanded')) !== 'true') await shipping.click();
    });
    // A click elsewhere closes it.
    await page.getByRole('heading', { level: 1 }).click();
    await expect(shipping).toHaveAttribute('aria-expanded', 'false');

    // By keyboard: ArrowDown opens at the first link, arrows move, Escape closes and focus is back on the button.
    await shipping.focus();
    await page.keyboard.press('ArrowDown');
    await expect(shipping).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Rates', exact: true })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(nav.getByRole('link', { name: 'Manifests', exact: true })).toBeFocused();
    await page.keyboard.press('End');
    await expect(nav.getByRole('link', { name: 'Rate cards', exact: true })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(shipping).toHaveAttribute('aria-expanded', 'false');
    await expect(shipping).toBeFocused();
    // Enter opens too; Tab walks through the links and out, which closes the group.
    await page.keyboard.press('Enter');
    await expect(shipping).toHaveAttribute('aria-expanded', 'true');
    for (let i = 0; i < 7; i += 1) await page.keyboard.press('Tab');
    await expect(shipping).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Billing', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('button', { name: 'Developers' })).toBeFocused();
    // Following a link goes there and closes the menu; the group shows where the page is.
    await page.keyboard.press('Enter');
    await nav.getByRole('link', { name: 'API tokens', exact: true }).click();
    await expect(page).toHaveURL(/\/test\/tokens$/);
    const developers = nav.getByRole('button', { name: 'Developers' });
    await expect(developers).toHaveAttribute('aria-expanded', 'false');
    await developers.click();
    await expect(nav.getByRole('link', { name: 'API tokens', exact: true })).toHaveAttribute('aria-current', 'page');
    expect(await axeFindings(page, 'tokens with Developers open')).toEqual([]);

    // A phone: the Menu button shows every link under its group's name; Escape closes it and focus returns.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(portalUrl('test', '/dashboard'));
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(nav).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    for (const label of ['Dashboard', 'Packages', 'Billing', 'Webhooks', 'API reference', 'Members', 'Account']) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('list', { name: 'Developers' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('nav-phone-menu-390.png'), fullPage: true });
    expect(await axeFindings(page, 'phone menu open', [390])).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
    await expect(nav).toBeHidden();
    await menu.click();
    await nav.getByRole('link', { name: 'Packages', exact: true }).click();
    await expect(page).toHaveURL(/\/test\/packages/);
    await expect(nav).toBeHidden();
  });

  test("times are in the reader's zone, named, with UTC on hover; UTC throughout is a setting; no hydration mismatch", async ({
    browser,
    account,
  }, testInfo) => {
    test.setTimeout(120_000);
    const page = await contextPage(browser, account, testInfo, { timezoneId: 'America/Los_Angeles' });
    const hydration = watchHydration(page);
    await page.goto(portalUrl('test', '/dashboard'));
    const tn = await dailyPackage(page);
    const pkg = (await (await portalApi(page, 'GET', `/portal-api/packages/${tn}`)).json()) as {
      created_at: string;
      ManifestID: string;
    };
    const losAngeles = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'America/Los_Angeles',
      timeZoneName: 'short',
    }).format(new Date(pkg.created_at));
    expect(losAngeles).toMatch(/P[SD]T$/);

    // The package page, loaded fresh (server-rendered first): the reader's zone, named; UTC in the title.
    await page.goto(portalUrl('test', `/packages/${tn}`));
    const received = page.locator('dt', { hasText: 'Received by us' }).locator('xpath=following-sibling::dd[1]');
    await expect(received).toHaveText(losAngeles);
    await expect(received.locator('time')).toHaveAttribute('title', /UTC$/);
    await expect(received.locator('time')).toHaveAttribute('datetime', new Date(pkg.created_at).toISOString());
    // The list, the manifest page and the request log agree.
    await page.goto(portalUrl('test', `/packages?tracking_number=${tn}`));
    await expect(page.getByRole('region', { name: 'Packages' }).locator('tbody tr').first()).toContainText(/P[SD]T/);
    await page.goto(portalUrl('test', `/manifests/${pkg.ManifestID}`));
    await expect(page.locator('dt', { hasText: /^Created$/ }).locator('xpath=following-sibling::dd[1]')).toContainText(/P[SD]T$/);
    await page.goto(portalUrl('test', '/logs'));
    await expect(page.locator('tbody tr').first()).toContainText(/P[SD]T/);
    await screenshots(page, testInfo, 'times-los-angeles-logs');

    // UTC as a setting, on the account page: every time follows, no hover needed.
    await page.goto(portalUrl('test', '/account'));
    const own = page.getByRole('radio', { name: 'Your time zone (America/Los_Angeles)' });
    await expect(own).toBeChecked(); // the browser's zone named: the page runs
    await page.getByRole('radio', { name: 'UTC', exact: true }).check();
    await expect(own).not.toBeChecked();
    await screenshots(page, testInfo, 'times-setting');
    await page.goto(portalUrl('test', `/packages/${tn}`));
    await expect(received).toHaveText(/UTC$/);
    await page.goto(portalUrl('test', '/account'));
    await expect(page.getByRole('radio', { name: 'UTC', exact: true })).toBeChecked();
    await own.check();
    await page.goto(portalUrl('test', `/packages/${tn}`));
    await expect(received).toHaveText(losAngeles);
    expect(hydration).toEqual([]);
    await page.context().close();
  });

  test('a package shows its details in words, with units and dates, not API field names', async ({
    signedInPage: page,
  }, testInfo) => {
    const tn = await dailyPackage(page, {
      ToAddress1: '1 Main St',
      ToCity: 'Beverly Hills',
      ToState: 'CA',
      ToCountry: 'US',
      Reference1: 'PO-7781',
    });
    await page.goto(portalUrl('test', `/packages/${tn}`));
    const fields = page.getByTestId('package-fields');
    const value = (label: string, group: string) =>
      fields
        .locator('section, div')
        .filter({ has: page.getByRole('heading', { name: group, exact: true }) })
        .last()
        .locator('dt', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]');
    await expect(value('Weight', 'Parcel')).toHaveText(/^1\.2(0*) kg$/);
    await expect(value('Dimensions \\(L × W × H\\)', 'Parcel')).toHaveText(/^10(\.0+)? × 8(\.0+)? × 4(\.0+)? in$/);
    await expect(value('Manifest date', 'Parcel')).toHaveText('2026-11-20');
    await expect(value('Service', 'Parcel')).toHaveText('Carrier Express');
    await expect(value('Postal code', 'Recipient')).toHaveText('90210');
    await expect(value('City', 'Recipient')).toHaveText('Beverly Hills');
    await expect(value('Company', 'Sender')).toHaveText('Maple Goods');
    await expect(value('Reference 1', 'References')).toHaveText('PO-7781');
    // No API name as a label.
    const labels = await fields.locator('dt').allTextContents();
    for (const label of labels) expect(label, `label ${label}`).not.toMatch(/^[A-Z][a-z]+[A-Z]|_/);
    expect(labels).not.toContain('PackageWeight');
    await screenshots(page, testInfo, 'package-details');
    expect(await axeFindings(page, 'package details')).toEqual([]);
  });

  test('dark mode follows the system: the chrome and the main pages turn dark with AA contrast', async ({
    browser,
    account,
  }, testInfo) => {
    test.setTimeout(300_000);
    const setup = await contextPage(browser, account, testInfo);
    await setup.goto(portalUrl('test', '/dashboard'));
    const tn = await dailyPackage(setup);
    const manifestId = ((await (await portalApi(setup, 'GET', `/portal-api/packages/${tn}`)).json()) as { ManifestID: string })
      .ManifestID;
    const lightBackground = await setup.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await setup.context().close();

    const page = await contextPage(browser, account, testInfo, { colorScheme: 'dark' });
    const findings: string[] = [];
    for (const [name, path] of [
      ['dashboard', '/dashboard'],
      ['packages', '/packages'],
      ['package', `/packages/${tn}`],
      ['manifests', '/manifests'],
      ['manifest', `/manifests/${manifestId}`],
      ['logs', '/logs'],
      ['account', '/account'],
      ['settings', '/settings'],
    ] as const) {
      await page.goto(portalUrl('test', path));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText(/Loading/)).toHaveCount(0, { timeout: 15_000 });
      findings.push(...(await axeFindings(page, `${name} (dark)`)));
      if (name === 'dashboard' || name === 'package' || name === 'packages') await screenshots(page, testInfo, `dark-${name}`);
    }
    // The rest of the portal in dark at one width: contrast does not change with the width (the eight above are
    // checked at both). Not the API reference: axe over its every operation takes minutes; its colours are the cards'.
    for (const [name, path] of [
      ['builder', '/manifests/new'],
      ['webhooks', '/webhooks'],
      ['billing', '/billing'],
      ['rates', '/rates'],
      ['rate cards', '/rate-cards'],
      ['pickups', '/pickups'],
      ['members', '/members'],
      ['tokens', '/tokens'],
      ['audit', '/audit'],
    ] as const) {
      await page.goto(portalUrl('test', path));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText(/Loading/)).toHaveCount(0, { timeout: 15_000 });
      findings.push(...(await axeFindings(page, `${name} (dark)`, [1440])));
      if (name === 'builder' || name === 'billing') await screenshots(page, testInfo, `dark-${name}`);
    }
    expect(findings).toEqual([]);
    // Dark, not the light page: the body, the header and a card.
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).not.toBe(lightBackground);
    const luminance = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.color = getComputedStyle(document.querySelector('header')!).backgroundColor;
      document.body.append(probe);
      const rgb = getComputedStyle(probe)
        .color.match(/[\d.]+/g)!
        .map(Number);
      probe.remove();
      return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
    });
    expect(luminance).toBeLessThan(0.2);
    // The navigation's menu in dark.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Shipping' }).click();
    await page.screenshot({ path: testInfo.outputPath('dark-nav-open-1440.png') });
    expect(await axeFindings(page, 'settings with Shipping open (dark)')).toEqual([]);
    await page.context().close();
  });
  test('one focus ring wherever the keyboard goes, light and dark; the API reference in dark', async ({
    browser,
    account,
  }, testInfo) => {
    // Fourteen pages tabbed through, then an axe scan of the 23,000-element reference: 55-60 s in CI on two loaded cores.
    test.setTimeout(180_000);
    // Every element Tab reaches on these pages, by its computed outline: one style is the whole answer.
    const rings = new Map<string, string[]>();
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await contextPage(browser, account, testInfo, { colorScheme });
      for (const path of ['/dashboard', '/packages', '/manifests/new', '/webhooks', '/tokens', '/settings', '/account']) {
        await page.goto(portalUrl('test', path));
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByText(/Loading/)).toHaveCount(0, { timeout: 15_000 });
        for (let i = 0; i < 30; i++) {
          await page.keyboard.press('Tab');
          const focused = await page.evaluate(() => {
            const element = document.activeElement as HTMLElement | null;
            // The builder's grid marks its active cell its own way (an inset ring inside the cell).
            if (!element || element === document.body || element.closest('[role="grid"]')) return null;
            const style = getComputedStyle(element);
            return {
              what: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}[${element.getAttribute('type') ?? ''}] "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}" ${element.className}`,
              ring: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}, offset ${style.outlineOffset}`,
            };
          });
          if (focused) rings.set(focused.ring, [...(rings.get(focused.ring) ?? []), `${colorScheme} ${path}: ${focused.what}`]);
        }
      }
      if (colorScheme === 'dark') {
        // The reference in dark: its header and one operation of each kind (axe over all of them takes minutes; the rest
        // are the same cards).
        await page.goto('/reference');
        await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible();
        const results = await axeScan(page)
          .include('header')
          .include('#op-post-wf-rate')
          .include('#op-get-events')
          .include('#op-get-requests-id')
          .analyze();
        const failing = results.violations
          .filter((v) => v.impact && FAILING_IMPACTS.has(v.impact))
          .map((v) => `${v.impact} ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(failing).toEqual([]);
        await page.locator('#op-post-wf-rate').scrollIntoViewIfNeeded();
        await page.screenshot({ path: testInfo.outputPath('dark-reference-1440.png') });
        await testInfo.attach('dark-reference-1440', {
          path: testInfo.outputPath('dark-reference-1440.png'),
          contentType: 'image/png',
        });
      }
      await page.context().close();
    }
    const byRing = Object.fromEntries([...rings].map(([ring, where]) => [ring, where.slice(0, 4)]));
    expect(Object.keys(byRing), JSON.stringify(byRing, null, 1)).toEqual(['solid 2px rgb(37, 99, 235), offset 2px']);
    expect(rings.get('solid 2px rgb(37, 99, 235), offset 2px')!.length).toBeGreaterThan(100);
  });
});
