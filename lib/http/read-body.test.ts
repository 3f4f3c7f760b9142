import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { collectBody, readNodeBody } from './read-body';

const options = (overrides: Partial<Parameters<typeof readNodeBody>[1]> = {}) => ({
  limit: 16,
  declaredLength: null,
  timeoutMs: 1_000,
  abort: vi.fn(),
  ...overrides,
});

// The node:http reader and the Web-stream reader keep the same rules; each case runs on both.
const readers = {
  readNodeBody: (chunks: Readable, o: ReturnType<typeof options>) => readNodeBody(chunks, o),
  collectBody: (chunks: Readable, o: ReturnType<typeof options>) => collectBody(chunks, o),
};

describe.each(Object.entries(readers))('%s', (_, read) => {
  it('joins the chunks, a character split between two of them included', async () => {
    const euro = Buffer.from('€');
    const body = Readable.from([Buffer.from('{"a":"'), euro.subarray(0, 1), euro.subarray(1), Buffer.from('"}')]);
    await expect(read(body, options())).resolves.toBe('{"a":"€"}');
  });

  it('reads an empty body as an empty string', async () => {
    await expect(read(Readable.from([]), options())).resolves.toBe('');
  });

  it('refuses a declared length over the limit before reading anything', async () => {
    const o = options({ declaredLength: '17' });
    const error = await read(new PassThrough(), o).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('payload_too_large');
    expect(o.abort).toHaveBeenCalledOnce();
  });

  it('accepts a body of exactly the limit and refuses one byte more', async () => {
    await expect(read(Readable.from([Buffer.alloc(8, 97), Buffer.alloc(8, 98)]), options())).resolves.toHaveLength(16);
    const o = options();
    const error = await read(Readable.from([Buffer.alloc(8, 97), Buffer.alloc(9, 98)]), o).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('payload_too_large');
    expect(o.abort).toHaveBeenCalledOnce();
  });

  it('gives up on a body that does not finish in time', async () => {
    const body = new PassThrough();
    body.write('{"a":');
    const o = options({ timeoutMs: 30 });
    const error = await read(body, o).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('request_timeout');
    expect(o.abort).toHaveBeenCalledOnce();
  });

  it('fails when the client goes away before the end of the body', async () => {
    const body = new PassThrough();
    body.write('{"a":');
    const o = options();
    const reading = read(body, o);
    body.destroy();
    await expect(reading).rejects.toThrow();
    expect(o.abort).toHaveBeenCalledOnce();
  });
});
