import { afterEach, describe, expect, it, vi } from 'vitest';
import { isClientError, NO_ANSWER_MESSAGE, portalFetch, PortalError } from './fetcher';

describe('portalFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turns a request that got no answer into a PortalError a person can read', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const error = await portalFetch('/portal-api/tokens/x', { method: 'DELETE' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalError);
    expect(error).toMatchObject({
      status: 0,
      code: 'no_answer',
      message: NO_ANSWER_MESSAGE,
      logged: false,
      requestId: undefined,
    });
  });

  it('passes an abort on as it is (a page left, a newer query)', async () => {
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal('fetch', () => Promise.reject(new DOMException('This operation was aborted', 'AbortError')));
    const error = await portalFetch('/portal-api/manifests', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(PortalError);
    expect((error as Error).name).toBe('AbortError');
  });

  it("carries an error answer's envelope and request id", async () => {
    const body = { error: { code: 'conflict', message: 'Already accepted.', request_id: 'req_1' } };
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify(body), { status: 409, headers: { 'x-request-id': 'req_1', 'x-request-logged': '1' } }),
      ),
    );
    const error = await portalFetch('/portal-api/invitations/x', { method: 'DELETE' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 409,
      code: 'conflict',
      message: 'Already accepted.',
      requestId: 'req_1',
      logged: true,
    });
  });
});

describe('isClientError', () => {
  it('is a 4xx only: a 5xx and a request with no answer are worth a retry', () => {
    expect(isClientError(new PortalError(404, null))).toBe(true);
    expect(isClientError(new PortalError(499, null))).toBe(true);
    expect(isClientError(new PortalError(500, null))).toBe(false);
    expect(isClientError(new PortalError(0, null))).toBe(false);
    expect(isClientError(new TypeError('Failed to fetch'))).toBe(false);
  });
});
