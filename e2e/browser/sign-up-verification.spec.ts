import { expect, screenshots, signUpThroughApi, test, uniqueUser } from '../fixtures';
import { linkFromOutbox } from '../outbox';

// Sign-up confirmed by e-mail (docs/decisions/portal-auth.md, "Sign-up verification"): the form answers "check your
// inbox"; the link in the mail (read on the development outbox, MAIL_OUTBOX=on in playwright.config.ts) opens a page
// that creates the account when confirmed.

test.describe('sign-up verification', () => {
  test('the form says "check your inbox"; the link opens a page that creates the account; it works once', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const user = uniqueUser('verify');
    await page.goto('/sign-up');
    await page.getByLabel('Company name').fill(user.company);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(user.email)).toBeVisible();
    // Nobody is signed in yet.
    expect((await page.context().cookies()).find((c) => c.name === 'carrier_session')).toBeUndefined();
    await screenshots(page, testInfo, 'sign-up-check-inbox');

    // Sending again replaces the first link.
    const base = new URL(page.url()).origin;
    const first = await linkFromOutbox(base, user.email);
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect(page.getByText('Sent again.')).toBeVisible();
    let second = first;
    await expect.poll(async () => (second = await linkFromOutbox(base, user.email))).not.toBe(first);

    await page.goto(new URL(first).pathname + new URL(first).search);
    await expect(page.getByText('replaced by a newer one')).toBeVisible();

    await page.goto(new URL(second).pathname + new URL(second).search);
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page.getByText(user.company)).toBeVisible();
    await screenshots(page, testInfo, 'verify-email');
    await page.getByRole('button', { name: 'Confirm and create account' }).click();
    await expect(page).toHaveURL(/\/test\/dashboard$/, { timeout: 30_000 });
    await expect(page.getByText(user.company)).toBeVisible();

    await page.goto(new URL(second).pathname + new URL(second).search);
    await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
    await expect(page.getByText('already been used')).toBeVisible();
    await screenshots(page, testInfo, 'verify-email-used');
  });

  test('a company name taken meanwhile: the page asks for another and the link still works', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const slow = uniqueUser('slow');
    await page.goto('/sign-up');
    await page.getByLabel('Company name').fill(slow.company);
    await page.getByLabel('E-mail').fill(slow.email);
    await page.getByLabel('Password').fill(slow.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible({ timeout: 30_000 });
    const link = new URL(await linkFromOutbox(new URL(page.url()).origin, slow.email));

    // Someone else confirms first, under the same name.
    const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    await signUpThroughApi(other.request, { ...uniqueUser('fast'), company: slow.company });
    await other.close();

    await page.goto(link.pathname + link.search);
    await expect(page.getByText('Choose another name: your link still works.')).toBeVisible();
    await screenshots(page, testInfo, 'verify-email-company-taken');
    await page.getByLabel('Company name').fill(`${slow.company} Two`);
    await page.getByRole('button', { name: 'Confirm and create account' }).click();
    await expect(page).toHaveURL(/\/test\/dashboard$/, { timeout: 30_000 });
    await expect(page.getByText(`${slow.company} Two`)).toBeVisible();
  });
});
