import { expect, screenshots, signUpThroughUi, test, uniqueUser } from '../fixtures';

test.describe('sign up, sign out, sign in', () => {
  test('a new shipper signs up, signs out and signs in again', async ({ page }, testInfo) => {
    const user = uniqueUser('auth');
    await page.goto('/sign-up');
    await screenshots(page, testInfo, 'sign-up');
    await signUpThroughUi(page, user);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByText(user.company)).toBeVisible();

    // The session cookie is httpOnly and SameSite=Lax.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'carrier_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/sign-in$/);

    await screenshots(page, testInfo, 'sign-in');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/test\/dashboard$/);
    await expect(page.getByText(user.company)).toBeVisible();
  });

  test('a wrong password is refused with a clear message', async ({ page }) => {
    const user = uniqueUser('wrongpw');
    await signUpThroughUi(page, user);
    await page.context().clearCookies();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Wrong e-mail or password.')).toBeVisible();
    // Focus moves to the refusal, not to <body> (the button it was on was disabled while sending).
    await expect(page.locator(':focus')).toContainText('Wrong e-mail or password.');
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test('sign-in is rate-limited after repeated failures, even with the right password', async ({ page }) => {
    const user = uniqueUser('limit');
    await signUpThroughUi(page, user);
    await page.context().clearCookies();
    await page.goto('/sign-in');
    for (let i = 0; i < 5; i += 1) {
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByLabel('Password').fill(`wrong-${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('Wrong e-mail or password.')).toBeVisible();
    }
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText(/Too many failed sign-in attempts\. Try again in \d+ (minutes?|seconds?)\./)).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in$/);

    const response = await page.request.post('/portal-api/auth/sign-in', {
      data: { email: user.email, password: user.password },
    });
    expect(response.status()).toBe(429);
    expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
  });

  test('sign-up says clearly when the company name is taken, and checks fields in the browser', async ({ page }) => {
    const first = uniqueUser('taken');
    await signUpThroughUi(page, first);
    await page.context().clearCookies();

    await page.goto('/sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#' + (await page.getByLabel('Company name').getAttribute('id')) + '-error')).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Company name').fill(first.company.toUpperCase());
    await page.getByLabel('E-mail').fill(uniqueUser('other').email);
    await page.getByLabel('Password').fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('An account with this company name already exists', { exact: false })).toBeVisible();
    await expect(page.getByLabel('Company name')).toHaveAttribute('aria-invalid', 'true');
  });

  test('the environment is in the URL: the switch moves the page, a reload keeps it, bare URLs go to the last used', async ({
    page,
  }, testInfo) => {
    const user = uniqueUser('env');
    await signUpThroughUi(page, user);
    await expect(page).toHaveURL(/\/test\/dashboard$/);
    await expect(page.getByTestId('env-test')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText('Test environment')).toBeVisible();
    await page.getByTestId('env-live').click();
    await expect(page).toHaveURL(/\/live\/dashboard$/);
    await expect(page.getByTestId('env-live')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('env-test')).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByText('Test environment')).toBeHidden();
    await page.reload();
    await expect(page).toHaveURL(/\/live\/dashboard$/);
    await expect(page.getByTestId('env-live')).toHaveAttribute('aria-current', 'page');

    // An old bookmark (a bare URL, its query kept) opens in the environment last used; so do / and sign-in.
    await page.goto('/manifests?q=ULD');
    await expect(page).toHaveURL(/\/live\/manifests\?q=ULD$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/live\/dashboard$/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/live\/dashboard$/);
    await expect(page.getByTestId('env-live')).toHaveAttribute('aria-current', 'page');

    // On a phone: the menu's links stay in the page's environment, and the switch sits in the header. A second tab
    // of the same session, phone-sized before it loads: resizing a painted page stalled headless Chromium's frames
    // once in CI (the Menu button never became "stable").
    const phone = await page.context().newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto('/dashboard');
    await expect(phone).toHaveURL(/\/live\/dashboard$/);
    await phone.getByRole('button', { name: 'Menu' }).click();
    await expect(phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' })).toHaveAttribute(
      'href',
      '/live/tokens',
    );
    await phone.screenshot({ path: testInfo.outputPath('env-menu-live-390.png'), fullPage: true });
    await phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await expect(phone).toHaveURL(/\/live\/tokens$/);
    await expect(phone.getByRole('button', { name: 'Create live token' })).toBeVisible();
    // The test pages are one link away, and the memory follows.
    await phone.getByTestId('env-test').click();
    await expect(phone).toHaveURL(/\/test\/tokens$/);
    await expect(phone.getByRole('button', { name: 'Create test token' })).toBeVisible();
    await phone.screenshot({ path: testInfo.outputPath('env-tokens-test-390.png'), fullPage: true });
    await phone.goto('/dashboard');
    await expect(phone).toHaveURL(/\/test\/dashboard$/);
  });
});
