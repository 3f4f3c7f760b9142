import { expect, test } from '@playwright/test';
import { signUpThroughApi, uniqueUser } from '../fixtures';

// The portal's public auth endpoints and the public OpenAPI document, driven over HTTP only.

test.describe('portal auth endpoints', () => {
  test('sign-up validates every field at once, with the API error envelope', async ({ request }) => {
    const response = await request.post('/portal-api/auth/sign-up', { data: { company: '', email: 'nope', password: 'short' } });
    expect(response.status()).toBe(422);
    const body = (await response.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.map((d) => d.path).sort()).toEqual(['company', 'email', 'password']);
  });

  test('sign-up and its link sign in; then the same company is a 409 naming it, the same e-mail the same 202 as a new one', async ({
    request,
  }) => {
    const user = uniqueUser('api');
    const verified = await signUpThroughApi(request, user);
    const setCookie = verified.headers()['set-cookie'] ?? '';
    expect(setCookie).toMatch(/carrier_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const sameCompany = await request.post('/portal-api/auth/sign-up', {
      data: { ...uniqueUser('api2'), company: user.company },
    });
    expect(sameCompany.status()).toBe(409);
    expect(((await sameCompany.json()) as { error: { details: { path: string }[] } }).error.details[0].path).toBe('company');

    // A known e-mail is not told apart from a new one (the mail it gets says what happened).
    const sameEmail = await request.post('/portal-api/auth/sign-up', { data: { ...uniqueUser('api3'), email: user.email } });
    const newEmail = await request.post('/portal-api/auth/sign-up', { data: uniqueUser('api4') });
    expect(sameEmail.status()).toBe(202);
    expect(newEmail.status()).toBe(202);
    expect(await sameEmail.text()).toBe(await newEmail.text());
    expect(sameEmail.headers()['set-cookie']).toBeUndefined();
  });

  test('sign-in refuses form posts and foreign origins (login CSRF)', async ({ request }) => {
    const form = await request.post('/portal-api/auth/sign-in', { form: { email: 'a@b.c', password: 'x' } });
    expect(form.status()).toBe(415);
    const foreign = await request.post('/portal-api/auth/sign-in', {
      headers: { origin: 'https://evil.example' },
      data: { email: 'a@b.c', password: 'x' },
    });
    expect(foreign.status()).toBe(403);
  });

  test('an unknown e-mail and a wrong password get the same answer', async ({ request }) => {
    const user = uniqueUser('same');
    await signUpThroughApi(request, user);
    const unknown = await request.post('/portal-api/auth/sign-in', {
      data: { email: `x${user.email}`, password: user.password },
    });
    const wrong = await request.post('/portal-api/auth/sign-in', { data: { email: user.email, password: 'wrong-password' } });
    expect(unknown.status()).toBe(401);
    expect(wrong.status()).toBe(401);
    // The same answer but for the request id each carries.
    const withoutRequestId = async (response: typeof unknown) => {
      const body = (await response.json()) as { error: { request_id?: string } };
      expect(body.error.request_id).toBe(response.headers()['x-request-id']);
      delete body.error.request_id;
      return body;
    };
    expect(await withoutRequestId(unknown)).toEqual(await withoutRequestId(wrong));
  });
});

test('the OpenAPI document answers CORS preflight and is the same under both base paths', async ({ request }) => {
  const preflight = await request.fetch('/api/1.1/openapi.json', {
    method: 'OPTIONS',
    headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()['access-control-allow-origin']).toBe('*');
  const live = await (await request.get('/api/1.1/openapi.json')).json();
  const test_ = await (await request.get('/version-test/api/1.1/openapi.json')).json();
  expect(test_).toEqual(live);
});
