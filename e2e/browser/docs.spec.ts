import { apiBase, authed, createToken, expect, screenshots, test } from '../fixtures';

/** How much of the API reference its screenshots show: the header, the contents and the first operations. */
const REFERENCE_SHOWN_PX = 6_000;

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  servers: { url: string }[];
  webhooks: Record<string, unknown>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

test('the OpenAPI document is public, valid JSON, and every documented path exists on both servers', async ({ request }) => {
  const response = await request.get('/api/1.1/openapi.json');
  expect(response.status()).toBe(200);
  expect(response.headers()['access-control-allow-origin']).toBe('*');
  expect(response.headers()['content-type']).toContain('application/json');
  expect(response.headers()['x-request-id']).toBeTruthy();
  const doc = (await response.json()) as Doc;
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.servers.map((s) => s.url)).toEqual(['/api/1.1', '/version-test/api/1.1']);
  expect(Object.keys(doc.components.securitySchemes)).toContain('Token');
  expect(doc.webhooks).toHaveProperty(['package.sorting']);
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining([
      '/wf/rate',
      '/wf/manifest',
      '/wf/package',
      '/webhooks',
      '/webhooks/{id}',
      '/webhooks/{id}/rotate-secret',
      '/webhooks/{id}/test',
      '/webhooks/{id}/deliveries',
    ]),
  );

  // Every $ref points at a schema that exists.
  const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  expect(refs.length).toBeGreaterThan(10);
  for (const name of new Set(refs)) expect(doc.components.schemas, name).toHaveProperty([name]);

  // A documented path answers 401 without a token (it exists); an undocumented one answers 404.
  for (const server of doc.servers) {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item).filter((k) => ['get', 'post', 'patch', 'delete'].includes(k))) {
        const url =
          server.url +
          path
            .replace('{id}', 'we_doesnotexist')
            .replace('{deliveryId}', 'att_1')
            .replace(/\{trackingNumber\}|\{TrackingNumber\}/i, 'TN0000000000');
        const answer = await request.fetch(url, { method, data: method === 'get' || method === 'delete' ? undefined : '{}' });
        // The test path's own operations (the simulators, closing a period now; their summaries say so) are not on the
        // live path at all: 404 before any token.
        const testOnly = /test path only/i.test((item[method] as { summary?: string }).summary ?? '');
        const expected = testOnly && !server.url.includes('/version-test/') ? 404 : 401;
        expect(answer.status(), `${method.toUpperCase()} ${url}`).toBe(expected);
      }
    }
    expect((await request.post(`${server.url}/wf/not-a-thing`, { data: '{}' })).status()).toBe(404);
  }
});

test('the API reference page renders every operation with schemas and curl examples', async ({
  signedInPage: page,
}, testInfo) => {
  // Every operation the document has is on the page (undeclared tags once hid half of them).
  const doc = (await (await page.request.get('/api/1.1/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const operations = Object.values(doc.paths).flatMap((item) =>
    Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
  );
  expect(operations.length).toBeGreaterThan(30);
  await page.goto('/test/docs');
  await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible();
  await expect(page.getByTestId('operation')).toHaveCount(operations.length);
  await expect(page.locator('#op-get-events')).toContainText('List webhook events');
  await expect(page.locator('#op-get-requests')).toContainText('List logged requests');
  await expect(page.locator('#op-get-requests-id')).toContainText('One logged request');
  const rate = page.locator('#op-post-wf-rate');
  await expect(rate).toContainText('Quote rates');
  await expect(rate).toContainText('weight_unit');
  // The page is rendered without a request; the browser puts its own origin into the examples.
  await expect(rate).toContainText(`curl -X POST '${new URL(page.url()).origin}/version-test/api/1.1/wf/rate'`);
  await expect(page.getByRole('heading', { name: /package\.sorting/ })).toBeVisible();
  await expect(page.getByText('manifest_id').first()).toBeVisible();
  // Nothing on the page comes from another origin.
  const origins = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).origin));
  expect(new Set(origins)).toEqual(new Set([new URL(page.url()).origin]));
  // Its top screens: the whole page is some 60,000 px tall, a 14 MB image that took 20 s a width to take.
  await screenshots(page, testInfo, 'docs', undefined, { maxHeight: REFERENCE_SHOWN_PX });
});

test('the documented request examples are accepted by the real API', async ({ signedInPage: page, request }) => {
  const doc = (await (await request.get('/api/1.1/openapi.json')).json()) as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string }; example?: unknown }> } }>
    >;
    components: { schemas: Record<string, { example?: unknown }> };
  };
  const api = authed(request, await createToken(page, 'docs examples'));
  for (const path of ['/wf/rate', '/wf/manifest', '/wf/package']) {
    const media = doc.paths[path].post.requestBody!.content['application/json'];
    const example = media.example ?? doc.components.schemas[media.schema.$ref!.split('/').pop()!].example;
    expect(example, path).toBeTruthy();
    const response = await api.post(`${apiBase.test}${path}`, example);
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  }
});

test('the public reference needs no account: every operation, linked from sign-in', async ({ page, request }, testInfo) => {
  const doc = (await (await request.get('/api/1.1/openapi.json')).json()) as Doc;
  const operations = Object.values(doc.paths).flatMap((item) =>
    Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
  );
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/reference$/);
  await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible();
  await expect(page.getByTestId('operation')).toHaveCount(operations.length);
  await expect(page.locator('#op-post-wf-rate')).toContainText(
    `curl -X POST '${new URL(page.url()).origin}/version-test/api/1.1/wf/rate'`,
  );
  await screenshots(page, testInfo, 'public-reference', undefined, { maxHeight: REFERENCE_SHOWN_PX });
});
