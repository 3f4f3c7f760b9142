import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { e2eDatabaseUrl } from '../database';
import type { Page, TestInfo } from '@playwright/test';
import { expect, portalApi, test, uniqueUser } from '../fixtures';

// The Billing page (docs/decisions/invoices.md): an owner sees the running total of what is not invoiced yet with
// its adjustments and their reasons, closes the test period (the invoice appears with its PDF and CSV), and switches
// the billing period to weekly; a viewer has no Billing link and is told the page is not for its role. Ledger rows are
// written to the server's database as the pricing code writes them. Screenshots at 1280 and 390 px.

async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await e2eDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function ledger(accountId: string) {
  await withDatabase(async (client) => {
    await client.query(
      `INSERT INTO billing_entries (account_id, environment, kind, package_id, manifest_id, tracking_number, carrier_barcode, service,
                                    amount, occurred_at, detail)
       SELECT $1::uuid, 'test', e.kind, (random() * 1e12)::bigint, e.manifest, e.tn, 'CB' || e.tn, e.service, e.amount::numeric,
              now() - e.ago * interval '1 minute', e.detail::jsonb
         FROM (VALUES ('charge', 'MAN-BILLING0000000001', 'TN1001', 'ground', '12.40', 50, '{}'),
                      ('charge', 'MAN-BILLING0000000001', 'TN1002', 'express', '31.95', 40, '{}'),
                      ('charge', 'MAN-BILLING0000000002', 'TN1003', 'ground', '9.10', 30, '{}'),
                      ('adjustment', 'MAN-BILLING0000000001', 'TN1001', 'ground', '3.25', 20,
                       '{"reason":"measured 11.2 lb, declared 8 lb"}'),
                      ('adjustment', 'MAN-BILLING0000000002', 'TN1003', 'ground', '-1.10', 10,
                       '{"reason":"measured 20 × 15 × 10 in, declared 24 × 18 × 12 in"}'))
              AS e(kind, manifest, tn, service, amount, ago, detail)`,
      [accountId],
    );
  });
}

async function shots(page: Page, name: string, testInfo: TestInfo) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(300);
    const path = testInfo.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an owner sees the running total and its adjustments, closes the test period and downloads the invoice', async ({
  freshPage: page,
}, testInfo) => {
  test.setTimeout(180_000);
  const session = (await (await portalApi(page, 'GET', '/portal-api/session', undefined, 'test')).json()) as {
    account: { id: string };
  };
  await ledger(session.account.id);

  await page.goto('/test/billing');
  await expect(page.getByRole('link', { name: 'Billing' }).first()).toBeVisible();
  const open = page.getByTestId('open-period');
  await expect(open).toContainText('55.60 USD');
  await expect(open).toContainText('53.45');
  await expect(open).toContainText('2.15');
  await expect(page.getByText('measured 11.2 lb, declared 8 lb')).toBeVisible();
  await expect(page.getByText('No invoices yet')).toBeVisible();
  await shots(page, 'billing-open', testInfo);

  await page.getByRole('button', { name: 'Close the period now (test)' }).click();
  await expect(page.getByText('Issued INV-000001.')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'INV-000001' });
  await expect(row).toContainText('55.60 USD');
  await expect(row).toContainText('Test');
  await expect(open).toContainText('0.00 USD');

  // The downloads are the operations' own answers.
  const pdfHref = await row.getByRole('link', { name: /^PDF/ }).getAttribute('href');
  const csvHref = await row.getByRole('link', { name: /^CSV/ }).getAttribute('href');
  const pdf = await page.request.get(pdfHref ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const csv = await page.request.get(csvHref ?? '');
  expect(csv.status()).toBe(200);
  expect((await csv.text()).trim().split('\r\n')).toHaveLength(6);

  // Weekly from the next invoice.
  await page.getByLabel('Weekly (Monday to Sunday)').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved: invoiced weekly.')).toBeVisible();
  await expect(page.getByText(/^The week from/)).toBeVisible();
  await shots(page, 'billing-invoiced', testInfo);
});

test('a viewer has no Billing link, and the page says it is not for its role', async ({
  freshPage: owner,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const session = (await (await portalApi(owner, 'GET', '/portal-api/session', undefined, 'test')).json()) as {
    account: { id: string };
  };
  const user = uniqueUser('viewer');
  await withDatabase(async (client) => {
    const passwordHash = await hash(user.password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const created = await client.query<{ id: string }>(
      'INSERT INTO users (id, email, password_hash) VALUES (gen_random_uuid(), $1, $2) RETURNING id',
      [user.email, passwordHash],
    );
    await client.query(
      `INSERT INTO memberships (id, account_id, user_id, role) VALUES (gen_random_uuid(), $1, $2, 'viewer'::"MemberRole")`,
      [session.account.id, created.rows[0]?.id],
    );
  });
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 1280, height: 900 } });
  const viewer = await context.newPage();
  await viewer.goto('/sign-in');
  await viewer.getByLabel('E-mail').fill(user.email);
  await viewer.getByLabel('Password').fill(user.password);
  await viewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(viewer).toHaveURL(/\/test\/dashboard$/, { timeout: 30_000 });
  await expect(viewer.getByRole('link', { name: 'Billing' })).toHaveCount(0);
  await viewer.goto('/test/billing');
  await expect(viewer.getByText(/cannot see invoices/i)).toBeVisible();
  await shots(viewer, 'billing-viewer', testInfo);
  await context.close();
});
