import { describe, expect, it } from 'vitest';
import { cutToBytes, LOGGED_BODY_BYTES, loggedBody, loggedQuery, loggedText } from './redact';

describe('loggedBody', () => {
  it('keeps an ordinary body as it is, with its size', () => {
    const body = JSON.stringify({ weight: '2.5', TrackingNumber: '1Z999', from_zip: '10001' });
    expect(loggedBody(body)).toEqual({ text: body, bytes: Buffer.byteLength(body) });
  });

  it('has nothing for an empty or absent body', () => {
    expect(loggedBody('')).toEqual({ text: null, bytes: 0 });
    expect(loggedBody(undefined)).toEqual({ text: null, bytes: 0 });
    expect(loggedBody(null)).toEqual({ text: null, bytes: 0 });
  });

  it('replaces secret members and the tokens and secrets this service issues, wherever they are', () => {
    const body = JSON.stringify({
      id: 'we_1',
      secret: 'whsec_abcDEF123+/=',
      previous_secret: 'anything at all',
      password: 'hunter2 "quoted"',
      api_key: 'k',
      note: 'my token is ck_live_0123456789abcdef and ck_test_ABC_def-9',
      secret_expires_at: '2026-11-24T00:00:00.000Z',
      TrackingNumber: '1Z999AA10123456784',
    });
    const text = loggedBody(body).text ?? '';
    expect(text).not.toMatch(/whsec_|ck_live_|ck_test_|hunter2|anything at all/);
    const parsed = JSON.parse(text) as Record<string, string>;
    expect(parsed.secret).toBe('[redacted]');
    expect(parsed.previous_secret).toBe('[redacted]');
    expect(parsed.password).toBe('[redacted]');
    expect(parsed.api_key).toBe('[redacted]');
    expect(parsed.note).toBe('my token is [redacted] and [redacted]');
    // Whole names only: these are not secrets.
    expect(parsed.secret_expires_at).toBe('2026-11-24T00:00:00.000Z');
    expect(parsed.TrackingNumber).toBe('1Z999AA10123456784');
  });

  it('knows secret names in every spelling, and values that are not quite JSON', () => {
    const body = JSON.stringify({
      clientSecret: 'a',
      newPassword: 'b',
      accessToken: 'c',
      'x-api-key': 'd',
      private_key: 'e',
      ApiSecret: 'f',
      webhookSecret: 'g',
      credentials: 'h',
    });
    expect(Object.values(JSON.parse(loggedBody(body).text ?? '{}') as Record<string, string>)).toEqual(
      Array(8).fill('[redacted]'),
    );
    expect(loggedBody('{"password": hunter2, "a": 1}').text).toBe('{"password": "[redacted]", "a": 1}');
    expect(loggedBody("{'password': 'hunter2'}").text).toBe('{\'password\': "[redacted]"}');
    expect(loggedBody('{"token_count": 3, "tokenizer": "x"}').text).toBe('{"token_count": 3, "tokenizer": "x"}');
  });

  it('redacts a token glued to what comes before it', () => {
    expect(loggedBody(`{"Note":"x_ck_test_${'A'.repeat(43)}"}`).text).toBe('{"Note":"x_[redacted]"}');
    expect(loggedBody(`1ck_live_${'b'.repeat(43)}`).text).toBe('1[redacted]');
  });

  it('never keeps text from past the cut, however much the redaction shortened what came before', () => {
    const secret = `"secret":"${'s'.repeat(1_000)}",`;
    const url = 'https://user:SUPERSECRET@example.com/hook';
    const body = `{${secret}"pad":"${'p'.repeat(LOGGED_BODY_BYTES - secret.length)}","url":"${url}"}`;
    const text = loggedBody(body).text ?? '';
    expect(text).not.toContain('SUPERSECRET');
    expect(text.endsWith('p')).toBe(true);
    expect(body.startsWith(text.replace('"secret":"[redacted]"', `"secret":"${'s'.repeat(1_000)}"`))).toBe(true);
  });

  it("removes a URL's password, and keeps its user and host", () => {
    expect(loggedBody('{"url":"https:\\/\\/hooks:s3cr3t@example.com"}').text).toBe(
      '{"url":"https:\\/\\/hooks:[redacted]@example.com"}',
    );
    expect(loggedBody('{"url":"https://:s3cr3t@example.com"}').text).toBe('{"url":"https://:[redacted]@example.com"}');
    expect(loggedBody('{"url":"https://hooks:s3cr3t@example.com/in"}').text).toBe(
      '{"url":"https://hooks:[redacted]@example.com/in"}',
    );
    expect(loggedText('next=https://a:b@c.example/x')).toBe('next=https://a:[redacted]@c.example/x');
    expect(loggedBody('{"url":"https://example.com/a:b@c"}').text).toBe('{"url":"https://example.com/a:b@c"}');
  });

  it('redacts text that is not JSON too', () => {
    expect(loggedBody('token=ck_ops_zzz&x=1').text).toBe('token=[redacted]&x=1');
  });

  it('cuts a large body to 16 KB on a character boundary, and still redacts a secret across the cut', () => {
    const filler = 'é'.repeat(LOGGED_BODY_BYTES / 2 - 5);
    const body = `{"a":"${filler}","secret":"whsec_${'x'.repeat(400)}"}${' '.repeat(100_000)}`;
    const logged = loggedBody(body);
    expect(logged.bytes).toBe(Buffer.byteLength(body));
    expect(Buffer.byteLength(logged.text ?? '')).toBeLessThanOrEqual(LOGGED_BODY_BYTES);
    expect(logged.text).not.toContain('whsec_');
    expect(logged.text).not.toContain('\uFFFD');
  });

  it('writes NUL as \\u0000, which PostgreSQL text cannot hold', () => {
    expect(loggedBody('{"a":"x\u0000y"}').text).toBe('{"a":"x\\u0000y"}');
    expect(loggedText('/wf/rate\u0000')).toBe('/wf/rate\\u0000');
  });
});

// CPU time, not wall time: on a loaded machine a test waits for the CPU, which says nothing of the work it does.
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

describe('loggedBody on hostile text', () => {
  it('stays linear: long runs, many quotes, escapes and token prefixes, in a 5 MB body', () => {
    const tail = 'x'.repeat(5_000_000);
    const decoded = [
      '\\u0077'.repeat(5_000),
      'password=' + '%41'.repeat(6_000),
      'ck%5Flive_'.repeat(2_000),
      '"pass\\u0077ord": "' + '\\u0041'.repeat(3_000),
      'a%5Bpassword%5D='.repeat(1_200),
    ];
    for (const body of [
      '"' + '_'.repeat(17_000),
      '"a_'.repeat(6_000),
      '//a:'.repeat(5_000),
      '"secret": "' + '\\\\'.repeat(9_000),
      '"secret":' + ' '.repeat(17_000),
      'ck_live_'.repeat(3_000),
      ...decoded,
    ]) {
      const started = cpuMs();
      const logged = loggedBody(body + tail);
      expect(cpuMs() - started).toBeLessThan(250);
      expect(Buffer.byteLength(logged.text ?? '')).toBeLessThanOrEqual(LOGGED_BODY_BYTES);
      const short = cpuMs();
      loggedQuery(body + tail);
      loggedText(body + tail, 2048);
      // The process's CPU, other threads' included (GC, other test files on a loaded machine): quadratic would be seconds.
      expect(cpuMs() - short).toBeLessThan(100);
    }
  });
});

describe('cutToBytes', () => {
  it('never splits a character', () => {
    expect(cutToBytes('aé', 2)).toBe('a');
    expect(cutToBytes('a😀b', 4)).toBe('a');
    expect(cutToBytes('a😀b', 5)).toBe('a😀');
    expect(cutToBytes('abc', 3)).toBe('abc');
  });
});
