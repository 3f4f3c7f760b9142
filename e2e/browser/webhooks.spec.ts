import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect, portalApi, screenshots, test } from '../fixtures';

// Webhook endpoints in the portal: create (secret shown once), test event, delivery log with the
// receiver's response, redeliver, disable / enable, delete. A receiver runs inside the test.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`ok from receiver #${received.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/carrier`, received, server };
}

test.describe('webhooks', () => {
  test('create, secret once, test event, delivery log, redeliver, disable, enable, delete', async ({
    freshPage: page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const receiver = await startReceiver();
    try {
      await page.goto('/test/webhooks');
      await expect(page.getByText('No webhook endpoints yet')).toBeVisible();
      await screenshots(page, testInfo, 'webhooks-empty');

      // Validation from the shared schema, next to the field.
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel(/Endpoint URL/).fill('ftp://example.com/x');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(page.getByText('must use https (or http)')).toBeVisible();
      await expect(page.getByLabel(/Endpoint URL/)).toHaveAttribute('aria-invalid', 'true');
      await screenshots(page, testInfo, 'webhooks-create-error');

      await page.getByLabel(/Endpoint URL/).fill(receiver.url);
      await page.getByLabel('Description').fill('Warehouse sorter');
      await expect(page.getByRole('checkbox', { name: /package\.sorting/ })).toBeChecked();
      await page.getByRole('button', { name: 'Add endpoint' }).click();

      // The secret, once, with a copy button; focus moved to the result: the secret itself.
      const secretBox = page.getByLabel('Signing secret');
      await expect(secretBox).toBeFocused();
      await expect(secretBox).toHaveValue(/^whsec_/);
      const secret = await secretBox.inputValue();
      await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
      await screenshots(page, testInfo, 'webhooks-secret-once');
      await page.getByRole('button', { name: 'I have saved the secret' }).click();

      await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();
      await expect(page.getByText(receiver.url)).toBeVisible();
      await expect(page.getByText(secret)).toHaveCount(0);
      const endpointUrl = page.url();

      // A test event is delivered, signed so the standardwebhooks package verifies it, and logged.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(page.getByText(/Test event queued/)).toBeVisible();
      const rows = page.getByTestId('delivery-row');
      await expect(rows).toHaveCount(1, { timeout: 20_000 });
      await expect(rows.first()).toContainText('200 delivered');
      await expect(rows.first()).toContainText('test');
      await expect(rows.first()).toContainText(/\d+ ms/);
      expect(receiver.received).toHaveLength(1);
      const delivered = receiver.received[0];
      const payload = new Webhook(secret).verify(delivered.body, {
        'webhook-id': String(delivered.headers['webhook-id']),
        'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
        'webhook-signature': String(delivered.headers['webhook-signature']),
      }) as { manifest_id: string; package_count: number; tracking_numbers: string[] };
      expect(payload.package_count).toBe(payload.tracking_numbers.length);

      // Expand the attempt: what was sent (every header, the body) and the receiver's response body.
      await rows
        .first()
        .getByRole('button', { name: /Show request and response/ })
        .click();
      await expect(page.getByText('ok from receiver #1')).toBeVisible();
      await expect(page.getByText(`webhook-id: ${String(delivered.headers['webhook-id'])}`)).toBeVisible();
      await expect(page.getByText(`webhook-signature: ${String(delivered.headers['webhook-signature'])}`)).toBeVisible();
      await expect(page.getByText(delivered.body, { exact: true })).toBeVisible();
      await screenshots(page, testInfo, 'webhook-detail-log');

      // Redeliver: a second attempt of the same message.
      await rows.first().getByRole('button', { name: 'Redeliver' }).click();
      await expect(rows).toHaveCount(2, { timeout: 20_000 });
      await expect(rows.first()).toContainText('#2');
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1].headers['webhook-id']).toBe(delivered.headers['webhook-id']);

      // The log filtered by outcome: both delivered, none failed.
      const show = page.getByRole('combobox', { name: 'Show' });
      await show.selectOption('failed');
      await expect(page.getByText('No failed attempts.')).toBeVisible();
      await show.selectOption('succeeded');
      await expect(rows).toHaveCount(2);
      await show.selectOption('all');

      // Edit the URL and the events; the next event goes to the new URL, signed with the same secret.
      await page.getByRole('button', { name: 'Edit' }).click();
      const editUrl = page.getByLabel(/Endpoint URL/);
      await expect(editUrl).toHaveValue(receiver.url);
      await editUrl.fill('not a url');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(editUrl).toHaveAttribute('aria-invalid', 'true');
      await editUrl.fill(`${receiver.url}/v2`);
      await page.getByRole('checkbox', { name: /package\.delivered/ }).check();
      await screenshots(page, testInfo, 'webhook-detail-edit');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Endpoint updated.')).toBeVisible();
      await expect(page.getByText(`${receiver.url}/v2`)).toBeVisible();
      await expect(page.getByText('package.sorting, package.delivered')).toBeVisible();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(rows).toHaveCount(3, { timeout: 20_000 });
      expect(receiver.received.at(-1)?.path).toBe('/hooks/carrier/v2');
      new Webhook(secret).verify(receiver.received.at(-1)?.body ?? '', {
        'webhook-id': String(receiver.received.at(-1)?.headers['webhook-id']),
        'webhook-timestamp': String(receiver.received.at(-1)?.headers['webhook-timestamp']),
        'webhook-signature': String(receiver.received.at(-1)?.headers['webhook-signature']),
      });

      // Disable: shown with its reason, no test events; enable again.
      await page.getByRole('button', { name: 'Disable' }).click();
      await expect(page.getByText('This endpoint is disabled.')).toBeVisible();
      await expect(page.getByText('It was switched off by hand.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Send test event' })).toBeDisabled();
      await screenshots(page, testInfo, 'webhook-detail-disabled');
      await page.goto('/test/webhooks');
      await expect(page.getByRole('listitem').filter({ hasText: receiver.url })).toContainText('Disabled');
      await page.goto(endpointUrl);
      await page.getByRole('button', { name: 'Enable' }).click();
      await expect(page.getByText('Endpoint enabled.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Send test event' })).toBeEnabled();

      // Delete, after confirming.
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('alertdialog')).toContainText('cannot be undone');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Yes, delete endpoint' }).click();
      await expect(page).toHaveURL(/\/webhooks\?deleted=1$/);
      await expect(page.getByText('Endpoint deleted.')).toBeVisible();
      await expect(page.getByText('No webhook endpoints yet')).toBeVisible();
      await page.goto(endpointUrl);
      await expect(page.getByText('Webhook endpoint not found')).toBeVisible();
    } finally {
      receiver.server.close();
    }
  });

  test("the list shows each endpoint's health and the event types; the same URL twice is asked first; focus follows", async ({
    freshPage: page,
  }, testInfo) => {
    test.setTimeout(150_000);
    // A receiver that refuses everything, so that the endpoint has a failure streak to show.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end('down for maintenance'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/failing`;
    const count = async () =>
      ((await (await portalApi(page, 'GET', '/portal-api/webhooks')).json()) as { data: unknown[] }).data.length;
    try {
      await page.goto('/test/webhooks');
      // The intro names every event type, without opening the form.
      const types = page.getByTestId('event-types');
      for (const event of ['package.sorting', 'package.delivered', 'container.departed', 'customs.released', 'package.amended']) {
        await expect(types).toContainText(event);
      }

      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel(/Endpoint URL/).fill(url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(page.getByLabel('Signing secret')).toBeFocused();
      await page.getByRole('button', { name: 'I have saved the secret' }).click();
      await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();

      // Send test event: focus on the status it produced, not on <body>.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(page.locator(':focus')).toContainText('Test event queued');
      await expect(page.getByTestId('delivery-row').first()).toContainText('500', { timeout: 30_000 });

      // The list: the last delivery, its outcome and the run of failures.
      await page.goto('/test/webhooks');
      const health = page.getByTestId('endpoint-health');
      await expect(health).toContainText(/Last delivery .+: failed \(HTTP 500\)/);
      await expect(health).toContainText(/\d+ failed attempts? in a row/);
      await screenshots(page, testInfo, 'webhooks-health', () => expect(health).toBeVisible());

      // The same URL again: asked first. "Don't add" adds nothing.
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel(/Endpoint URL/).fill(url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText('This URL already has an endpoint');
      await screenshots(page, testInfo, 'webhooks-duplicate-url', () => expect(dialog).toBeVisible());
      await dialog.getByRole('button', { name: "Don't add" }).click();
      await expect(dialog).toBeHidden();
      expect(await count()).toBe(1);
      // Asked again, and added when the user says so.
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await dialog.getByRole('button', { name: 'Add it again' }).click();
      await expect(page.getByLabel('Signing secret')).toBeFocused();
      expect(await count()).toBe(2);
    } finally {
      server.close();
    }
  });
});
