import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/api';
import { address, signUpAndVerify, signUpTokenFromOutbox } from './support/portal';

// The portal's public auth endpoints (sign-up, its e-mail link, sign-in), over HTTP through the run's server. Every
// request names a client address of its own (the server trusts 127.0.0.1 as the proxy that names it), so that no
// per-address limit is reached by this file.

function newUser(label: string) {
  const id = randomUUID().slice(0, 8);
  return {
    company: `Auth ${label} ${id}`,
    email: `${label.toLowerCase()}-${id}@example.com`,
    password: `pw-${id}-correct-horse`,
  };
}

function post(path: string, options: { json?: unknown; body?: string; headers?: Record<string, string> }) {
  return fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address(), ...options.headers },
    body: options.body ?? JSON.stringify(options.json),
  });
}

describe('portal auth endpoints', () => {
  it('sign-up validates every field at once, with the API error envelope', async () => {
    const response = await post('/portal-api/auth/sign-up', { json: { company: '', email: 'nope', password: 'short' } });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.map((d) => d.path).sort()).toEqual(['company', 'email', 'password']);
  });

  it('sign-up and its link sign in; then the same company is a 409 naming it, the same e-mail the same 202 as a new one', async () => {
    const user = newUser('Api');
    const asked = new Date(Date.now() - 1_000);
    const signedUp = await post('/portal-api/auth/sign-up', { json: user });
    expect(signedUp.status, await signedUp.clone().text()).toBe(202);
    expect(signedUp.headers.get('set-cookie')).toBeNull();
    const token = await signUpTokenFromOutbox(user.email, { after: asked });
    const verified = await post('/portal-api/auth/verify-email', { json: { token } });
    expect(verified.status, await verified.clone().text()).toBe(201);
    const setCookie = verified.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/carrier_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const sameCompany = await post('/portal-api/auth/sign-up', { json: { ...newUser('Api2'), company: user.company } });
    expect(sameCompany.status).toBe(409);
    expect(((await sameCompany.json()) as { error: { details: { path: string }[] } }).error.details[0].path).toBe('company');

    // A known e-mail is not told apart from a new one (the mail it gets says what happened).
    const sameEmail = await post('/portal-api/auth/sign-up', { json: { ...newUser('Api3'), email: user.email } });
    const newEmail = await post('/portal-api/auth/sign-up', { json: newUser('Api4') });
    expect(sameEmail.status).toBe(202);
    expect(newEmail.status).toBe(202);
    expect(await sameEmail.text()).toBe(await newEmail.text());
    expect(sameEmail.headers.get('set-cookie')).toBeNull();
  });

  it('sign-in refuses form posts and foreign origins (login CSRF)', async () => {
    const form = await post('/portal-api/auth/sign-in', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'a@b.c', password: 'x' }).toString(),
    });
    expect(form.status).toBe(415);
    const foreign = await post('/portal-api/auth/sign-in', {
      headers: { origin: 'https://evil.example' },
      json: { email: 'a@b.c', password: 'x' },
    });
    expect(foreign.status).toBe(403);
  });

  it('an unknown e-mail and a wrong password get the same answer', async () => {
    const user = newUser('Same');
    await signUpAndVerify(user);
    const unknown = await post('/portal-api/auth/sign-in', { json: { email: `x${user.email}`, password: user.password } });
    const wrong = await post('/portal-api/auth/sign-in', { json: { email: user.email, password: 'wrong-password' } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    // The same answer but for the request id each carries.
    const withoutRequestId = async (response: Response) => {
      const body = (await response.json()) as { error: { request_id?: string } };
      expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
      delete body.error.request_id;
      return body;
    };
    expect(await withoutRequestId(unknown)).toEqual(await withoutRequestId(wrong));
  });
});
