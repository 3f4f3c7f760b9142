import { randomBytes } from 'node:crypto';
import { test as base, expect, type APIRequestContext, type Locator, type Page, type TestInfo } from '@playwright/test';
import { linkFromOutbox } from './outbox';

// Fixtures shared by the e2e specs:
//   account       a brand-new shipper, signed up through the UI once per worker (storage state saved)
//   signedInPage  a page signed in as that shipper, on /test/dashboard (the environment is in the URL)
//   apiToken      a test-environment API token of that shipper, created through the portal API
// and helpers for unique users and for the 1440/390 screenshots attached to the results.

export interface Account {
  company: string;
  email: string;
  password: string;
  storageState: string;
}

export function uniqueUser(label = 'user') {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return { company: `E2E ${label} ${id}`, email: `${label}-${id}@e2e.example`, password: `pw-${id}-correct-horse` };
}

/**
 * Signs up through the UI as a person does: the form, "Check your inbox", the link in the mail (read from the
 * server's development outbox, e2e/outbox.ts), the confirmation page; ends signed in on /test/dashboard.
 */
export async function signUpThroughUi(page: Page, user: { company: string; email: string; password: string }) {
  await page.goto('/sign-up');
  await page.getByLabel('Company name').fill(user.company);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  // argon2 hashing plus the first render of a cold server took over 10 s on the shared machine once.
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible({ timeout: 30_000 });
  const link = new URL(await linkFromOutbox(new URL(page.url()).origin, user.email.trim().toLowerCase()));
  await page.goto(link.pathname + link.search);
  await page.getByRole('button', { name: 'Confirm and create account' }).click();
  await expect(page).toHaveURL(/\/test\/dashboard$/, { timeout: 30_000 });
}

/**
 * Signs up over HTTP in `request`'s cookie jar: POST sign-up (202, no session), the link from the outbox, POST
 * verify-email with its token (201, the session's cookie set in the jar). Returns the verification's answer.
 */
export async function signUpThroughApi(request: APIRequestContext, user: { company: string; email: string; password: string }) {
  const asked = await request.post('/portal-api/auth/sign-up', { data: user });
  expect(asked.status(), await asked.text()).toBe(202);
  expect(asked.headers()['set-cookie']).toBeUndefined();
  const link = new URL(await linkFromOutbox(base.info().project.use.baseURL!, user.email.trim().toLowerCase()));
  const verified = await request.post('/portal-api/auth/verify-email', { data: { token: link.searchParams.get('token') } });
  expect(verified.status(), await verified.text()).toBe(201);
  return verified;
}

export type Env = 'test' | 'live';

/** A portal page's URL in an environment: portalUrl('test', '/manifests/new') → '/test/manifests/new'. */
export function portalUrl(environment: Env, path: string): string {
  return `/${environment}${path}`;
}

/** The environment of the page's URL (/test/… or /live/…); test when the page is not in the portal. */
export function pageEnvironment(page: Page): Env {
  const first = new URL(page.url(), 'http://x').pathname.split('/')[1];
  return first === 'live' ? 'live' : 'test';
}

/** The session's CSRF token, as the portal layout publishes it. */
export async function csrfToken(page: Page): Promise<string> {
  const meta = page.locator('meta[name="csrf-token"]');
  if ((await meta.count()) === 0) await page.goto(portalUrl('test', '/dashboard'));
  const token = await meta.getAttribute('content');
  if (!token) throw new Error('no csrf-token meta on the page');
  return token;
}

/**
 * Calls the portal API from the signed-in page's cookie jar, as the page's fetcher does: with the CSRF
 * token and the environment (`x-carrier-environment`), by default that of the page's URL.
 */
export async function portalApi(page: Page, method: string, path: string, body?: unknown, environment?: Env) {
  const token = await csrfToken(page);
  return page.request.fetch(path, {
    method,
    headers: {
      'x-csrf-token': token,
      'x-carrier-environment': environment ?? pageEnvironment(page),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The header's Test/Live switch: this page moves to the same page in `environment` (its URL says which). */
export async function switchEnvironment(page: Page, environment: Env) {
  const link = page.getByTestId(`env-${environment}`);
  if ((await link.getAttribute('aria-current')) === 'page') return;
  await link.click();
  await expect(link).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(new RegExp(`^[^?#]*//[^/]+/${environment}(/|$)`));
}

/**
 * The page after a resize, ready to read: two frames for layout and resize observers, a task for the renders they
 * start (React's), two more frames, then the transitions those began (not endless ones such as spinners), at most 1 s.
 * Most pages are still after ~50 ms, so no fixed wait.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    await frame();
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await frame();
    await frame();
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.race([
      Promise.all(finite.map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 1_000)),
    ]);
  });
}

/**
 * Full-page screenshots at 1440×900 and 390×844, attached to the test's results; the top `maxHeight` pixels of a page
 * taller than that. Under reduced motion, as a reader who asks for it sees it: the charts draw their final state at
 * once instead of growing again after each resize.
 */
export async function screenshots(
  page: Page,
  testInfo: TestInfo,
  name: string,
  ready?: () => Promise<void>,
  { maxHeight }: { maxHeight?: number } = {},
) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (ready) await ready();
    await settle(page); // charts re-measure after the resize
    const path = testInfo.outputPath(`${name}-${width}.png`);
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    const clip = maxHeight && pageHeight > maxHeight ? { x: 0, y: 0, width, height: maxHeight } : undefined;
    await page.screenshot({ path, fullPage: true, clip });
    await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ reducedMotion: null });
}

/** A link of the main navigation, its group's menu opened first when it sits in one (at desktop widths). */
export async function navLink(page: Page, label: string, group?: string): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (group) {
    const button = nav.getByRole('button', { name: group });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  }
  return nav.getByRole('link', { name: label, exact: true });
}

export const apiBase = { test: '/version-test/api/1.1', live: '/api/1.1' } as const;

export async function createToken(page: Page, name: string, environment?: Env): Promise<string> {
  const response = await portalApi(page, 'POST', '/portal-api/tokens', { name }, environment);
  expect(response.status()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

export function authed(request: APIRequestContext, token: string) {
  const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
  return {
    post: (path: string, data: unknown) => request.post(path, { headers, data }),
    get: (path: string) => request.get(path, { headers }),
  };
}

export const test = base.extend<{ signedInPage: Page; freshPage: Page; apiToken: string }, { account: Account }>({
  account: [
    async ({ browser }, provide, workerInfo) => {
      const user = uniqueUser(`w${workerInfo.workerIndex}`);
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const page = await context.newPage();
      await signUpThroughUi(page, user);
      const storageState = workerInfo.project.outputDir + `/.auth-${workerInfo.workerIndex}-${Date.now()}.json`;
      await context.storageState({ path: storageState });
      await context.close();
      await provide({ ...user, storageState });
    },
    { scope: 'worker' },
  ],
  signedInPage: async ({ browser, account }, provide, testInfo) => {
    const context = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      viewport: { width: 1440, height: 900 },
      storageState: account.storageState,
    });
    const page = await context.newPage();
    await page.goto(portalUrl('test', '/dashboard'));
    await provide(page);
    await context.close();
  },
  /** A page of a shipper signed up for this test alone: for flows that start from empty. */
  freshPage: async ({ browser }, provide, testInfo) => {
    const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signUpThroughUi(page, uniqueUser('fresh'));
    await provide(page);
    await context.close();
  },
  apiToken: async ({ signedInPage }, provide) => {
    await provide(await createToken(signedInPage, `fixture ${Date.now()}`));
  },
});

export { expect };
