import { describe, expect, it } from 'vitest';
import { Duplex } from 'node:stream';
import { answerClientError } from './client-error';

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
