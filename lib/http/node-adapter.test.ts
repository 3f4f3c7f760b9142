import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Duplex } from 'node:stream';
import { answerClientError, splitTarget } from './node-adapter';

// What the pipeline sees: the path, and the query as parameters.
const seen = ({ pathname, search }: { pathname: string; search: string }) => ({ pathname, query: [...new URLSearchParams(search)] });
const parsed = (target: string) => seen(new URL(target, 'http://localhost'));

describe('splitTarget', () => {
  it.each([
    '/version-test/api/1.1/wf/rate',
    '/api/1.1/webhooks?limit=5&cursor=a%20b',
    '/api/1.1/wf/rate?',
    '/api/1.1/wf/./rate',
    '/api/1.1/wf/../wf/rate',
    '//api/1.1/wf/rate',
    '/api/1.1/wf/rate/',
    '/api/1.1/wf/r%61te',
    '/api/1.1\\wf/rate',
    '/.well-known/x',
    '/api/1.1/webhooks?limit=5#frag',
  ])('reads %s as the URL parser does', (target) => {
    expect(seen(splitTarget(target))).toEqual(parsed(target));
  });

  it('agrees with the URL parser on any target', () => {
    // Characters a request line can carry (no spaces: HTTP's delimiter), URL-significant ones weighted in.
    const char = fc.constantFrom(...'/./..?%2Fa1_-~=&\\#'.split(''), 'api', '1.1', 'wf', 'rate', '%2e', '%20');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (parts) => {
        const target = `/${parts.join('')}`;
        if (URL.canParse(target, 'http://localhost')) expect(seen(splitTarget(target))).toEqual(parsed(target));
        else expect(splitTarget(target).pathname).toBe(target.split('?')[0]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('answerClientError', () => {
  const answer = (code: string) => {
    let written = '';
    const socket = new Duplex({
      read() {},
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    answerClientError(Object.assign(new Error('parse error'), { code }), socket);
    const [head = '', body = ''] = written.split('\r\n\r\n');
    return { statusLine: head.split('\r\n')[0], head, body: JSON.parse(body) };
  };

  it.each([
    ['HPE_HEADER_OVERFLOW', 'HTTP/1.1 431 Request Header Fields Too Large', 'headers_too_large'],
    ['HPE_INVALID_METHOD', 'HTTP/1.1 400 Bad Request', 'bad_request'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 'HTTP/1.1 408 Request Timeout', 'request_timeout'],
  ])('answers %s with the envelope, a request id and Connection: close', (code, statusLine, errorCode) => {
    const result = answer(code);
    expect(result.statusLine).toBe(statusLine);
    expect(result.body.error.code).toBe(errorCode);
    const requestId = /x-request-id: (\S+)/.exec(result.head)?.[1];
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(result.body.error.request_id).toBe(requestId);
    expect(result.head).toContain('connection: close');
    expect(result.head).toContain('access-control-allow-origin: *');
  });
});
