import type { Browser, Page } from '@playwright/test';
import { expect, navLink, screenshots, signUpThroughUi, test, uniqueUser } from '../fixtures';

// Forgot password → the mail (read on the development outbox page, which this server has: MAIL_OUTBOX=on in
// playwright.config.ts, no SMTP_URL) → its link → a new password; then the account page: change password and
// sessions. Each "device" is a browser context of its own.

async function device(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/(test|live)\/dashboard$/, { timeout: 20_000 });
}

/** The newest reset link mailed to `email`, from the outbox page. */
async function resetLinkFromOutbox(page: Page, email: string): Promise<string> {
  await page.goto('/dev/outbox');
  const mail = page
    .getByTestId('outbox-mail')
    .filter({ has: page.getByTestId('outbox-to').getByText(email, { exact: true }) })
    .filter({ hasText: 'Reset your Carrier password' })
    .first();
  await expect(mail).toBeVisible();
  return (await mail.getByRole('link').first().getAttribute('href'))!;
}

test.describe('forgotten password, change password, sessions', () => {
  test('a shipper resets a forgotten password by e-mail; the old session ends and the link works once', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const baseURL = testInfo.project.use.baseURL;
    const user = uniqueUser('reset');
    const laptop = await device(browser, baseURL);
    await signUpThroughUi(laptop, user);

    const phone = await device(browser, baseURL);
    await phone.goto('/sign-in');
    await phone.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(phone).toHaveURL(/\/forgot-password$/);
    await expect(phone.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await screenshots(phone, testInfo, 'forgot-password');
    // The browser checks the field first.
    await phone.getByRole('button', { name: 'Send reset link' }).click();
    await expect(phone.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
    await phone.getByLabel('E-mail').fill(user.email);
    await phone.getByRole('button', { name: 'Send reset link' }).click();
    await expect(phone.getByText('If an account exists for this e-mail')).toBeVisible();
    await screenshots(phone, testInfo, 'forgot-password-sent');

    const link = await resetLinkFromOutbox(phone, user.email);
    expect(link).toMatch(/\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    await screenshots(phone, testInfo, 'outbox');
    await phone.goto(link);
    await expect(phone.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await screenshots(phone, testInfo, 'reset-password');
    await phone.getByLabel('New password').fill('short');
    await phone.getByRole('button', { name: 'Set new password' }).click();
    await expect(phone.getByText('must be at least 10 characters')).toBeVisible();
    const newPassword = `${user.password}-renewed`;
    await phone.getByLabel('New password').fill(newPassword);
    await phone.getByRole('button', { name: 'Set new password' }).click();
    await expect(phone).toHaveURL(/\/test\/dashboard$/, { timeout: 20_000 });
    await expect(phone.getByText(user.company)).toBeVisible();

    // The laptop's session ended with the reset.
    await laptop.goto('/test/dashboard');
    await expect(laptop).toHaveURL(/\/sign-in/);

    // The link works once.
    await phone.goto(link);
    await expect(phone.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
    await expect(phone.getByText('already been used')).toBeVisible();
    await screenshots(phone, testInfo, 'reset-link-used');
    await phone.goto('/reset-password?token=not-a-token');
    await expect(phone.getByText('not a valid password-reset link')).toBeVisible();

    // The old password no longer signs in; the new one does.
    await laptop.goto('/sign-in');
    await laptop.getByLabel('E-mail').fill(user.email);
    await laptop.getByLabel('Password').fill(user.password);
    await laptop.getByRole('button', { name: 'Sign in' }).click();
    await expect(laptop.getByText('Wrong e-mail or password.')).toBeVisible();
    await signIn(laptop, user.email, newPassword);
    await laptop.context().close();
    await phone.context().close();
  });

  test('a signed-in shipper changes the password, sees its sessions, revokes one and signs out everywhere', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const baseURL = testInfo.project.use.baseURL;
    const user = uniqueUser('account');
    const desk = await device(browser, baseURL);
    await signUpThroughUi(desk, user);
    const other = await device(browser, baseURL);
    await signIn(other, user.email, user.password);

    await (await navLink(desk, 'Account', 'Team')).click();
    await expect(desk).toHaveURL(/\/test\/account$/);
    await expect(desk.getByRole('heading', { name: 'Your account' })).toBeVisible();
    const rows = desk.getByTestId('session-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
    await screenshots(desk, testInfo, 'account', async () => {
      await expect(rows).toHaveCount(2);
    });

    await desk.getByLabel('Current password').fill('not-my-password');
    await desk.getByLabel('New password').fill('a-brand-new-password');
    await desk.getByRole('button', { name: 'Change password' }).click();
    await expect(desk.getByText('is not your current password')).toBeVisible();
    await desk.getByLabel('Current password').fill(user.password);
    await desk.getByLabel('New password').fill('a-brand-new-password');
    await desk.getByRole('button', { name: 'Change password' }).click();
    await expect(desk.getByText('Password changed. 1 other session was signed out; this one stays signed in.')).toBeVisible();
    await expect(rows).toHaveCount(1);
    await other.goto('/test/dashboard');
    await expect(other).toHaveURL(/\/sign-in/);

    // Two more devices; one revoked from the list.
    await signIn(other, user.email, 'a-brand-new-password');
    const third = await device(browser, baseURL);
    await signIn(third, user.email, 'a-brand-new-password');
    await desk.reload();
    await expect(rows).toHaveCount(3);
    await rows
      .filter({ hasNotText: 'This device' })
      .first()
      .getByRole('button', { name: /^Revoke / })
      .click();
    await expect(rows).toHaveCount(2);
    const stillIn = await Promise.all(
      [other, third].map(async (page) => {
        await page.goto('/test/dashboard');
        return /\/test\/dashboard$/.test(page.url());
      }),
    );
    expect(stillIn.sort()).toEqual([false, true]);

    await desk.getByRole('button', { name: 'Sign out everywhere' }).click();
    await desk.getByRole('button', { name: 'Confirm: sign out everywhere' }).click();
    await expect(desk).toHaveURL(/\/sign-in$/);
    for (const page of [other, third]) {
      await page.goto('/test/dashboard');
      await expect(page).toHaveURL(/\/sign-in/);
    }
    for (const page of [desk, other, third]) await page.context().close();
  });
});
