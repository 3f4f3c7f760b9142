import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { httpStatus } from '@/lib/http/errors';
import { assertSameOrigin, errorResponse, portalRoute } from './route';

const signIn = (headers: Record<string, string>) =>
  new Request('http://portal.example/portal-api/auth/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json', host: 'portal.example', ...headers },
  });

function refusal(request: Request): AppError | undefined {
  try {
    assertSameOrigin(request);
    return undefined;
  } catch (error) {
    return error as AppError;
  }
}

describe('assertSameOrigin', () => {
  it('lets this site and a request without Origin through', () => {
    expect(refusal(signIn({ origin: 'http://portal.example' }))).toBeUndefined();
    expect(refusal(signIn({}))).toBeUndefined();
  });

  it.each(['null', 'not a url', '', '://x', 'http://[::1', 'http://evil.example', 'file:///etc/passwd', 'javascript:alert(1)'])(
    'refuses Origin %j with 403 forbidden (never a throw of its own)',
    (origin) => {
      const error = refusal(signIn({ origin }));
      expect(error).toBeInstanceOf(AppError);
      expect(error && httpStatus(error)).toBe(403);
      expect(error?.code).toBe('forbidden');
    },
  );
});

describe('portalRoute', () => {
  // The handler must never run: the id is refused before the session is even looked up.
  const route = portalRoute<{ id: string }>(
    async () => {
      throw new Error('the handler ran');
    },
    { permission: 'data:read' },
  );

  it.each(['\u0000', 'a\u0001b', 'a\ud800', '\u007f', '\u0085', 'x'.repeat(129), ''])(
    'answers an id %j that cannot exist with a 404 envelope and x-request-id, before any session or query',
    async (id) => {
      const response = await route(new Request('http://portal.example/portal-api/manifests/x'), {
        params: Promise.resolve({ id }),
      });
      expect(response.status).toBe(404);
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
      expect(await response.json()).toEqual({
        error: {
          code: 'not_found',
          message: 'Nothing exists at this path: its id is not an id this service issues.',
          request_id: requestId,
        },
      });
    },
  );
});

describe('errorResponse', () => {
  it('answers a database outage with 503 and Retry-After, a bug with 500', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const outage = errorResponse(refused, 'req_outage');
    expect(outage.status).toBe(503);
    expect(outage.headers.get('retry-after')).toBe('2');
    expect(((await outage.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
    const bug = errorResponse(new TypeError('x is undefined'), 'req_bug');
    expect(bug.status).toBe(500);
    expect(((await bug.json()) as { error: { code: string } }).error.code).toBe('internal_error');
  });
});
