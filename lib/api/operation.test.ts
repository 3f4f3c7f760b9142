import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkedHandler, defineJsonOperation, type OperationContext } from './operation';

// The definition holds a handler to its schema at compile time: `npm run typecheck` fails if the handlers below
// marked as expected errors ever compile (the unused directive is then the error).
const ZAnswer = z.object({ object: z.literal('thing'), count: z.number() });
const base = { id: 'getThing', method: 'GET', path: '/things', scope: 'rates', tag: 'Rating', summary: 'A thing' } as const;

describe('defineJsonOperation', () => {
  it('takes a handler whose answer is the schema’s output, and keeps the schema for the document', () => {
    const definition = defineJsonOperation(ZAnswer, {
      ...base,
      success: { kind: 'json', status: 200, description: 'The thing.' },
      handler: () => Promise.resolve({ body: { object: 'thing', count: 1 } }),
    });
    expect(definition.success).toMatchObject({ kind: 'json', schema: ZAnswer });
  });

  it('refuses, at compile time, an answer of another shape', () => {
    defineJsonOperation(ZAnswer, {
      ...base,
      success: { kind: 'json', status: 200, description: 'The thing.' },
      // @ts-expect-error `count` is a number in the schema
      handler: () => Promise.resolve({ body: { object: 'thing', count: '1' } }),
    });
    defineJsonOperation(ZAnswer, {
      ...base,
      success: { kind: 'json', status: 200, description: 'The thing.' },
      // @ts-expect-error `object` is the literal 'thing'
      handler: () => Promise.resolve({ body: { object: 'other', count: 1 } }),
    });
    expect(true).toBe(true);
  });
});

describe('checkedHandler', () => {
  const context = {} as OperationContext;
  it('passes an answer that matches the schema, and refuses one that does not (what a cast hides from tsc)', async () => {
    const good = defineJsonOperation(ZAnswer, {
      ...base,
      success: { kind: 'json', status: 200, description: 'The thing.' },
      handler: () => Promise.resolve({ body: { object: 'thing', count: 1 } }),
    });
    await expect(checkedHandler(good)(context)).resolves.toEqual({ body: { object: 'thing', count: 1 } });
    const drifted = defineJsonOperation(ZAnswer, {
      ...base,
      success: { kind: 'json', status: 200, description: 'The thing.' },
      handler: () =>
        Promise.resolve({ body: JSON.parse('{"object":"thing","count":"1"}') as { object: 'thing'; count: number } }),
    });
    await expect(checkedHandler(drifted)(context)).rejects.toThrow(/getThing: the answer does not match its schema/);
  });
});

describe('a write that reads no body', () => {
  const cancel = defineJsonOperation(ZAnswer, {
    ...base,
    id: 'cancelThing',
    method: 'POST',
    path: '/things/{id}/cancel',
    success: { kind: 'json', status: 200, description: 'The thing.' },
    handler: () => Promise.resolve({ body: { object: 'thing', count: 1 } }),
  });
  const sending = (json: () => Promise<unknown>) => ({ json }) as OperationContext;

  it('names each field it was sent in `warnings`, and the document says the answer may carry them', async () => {
    const answer = await cancel.handler(sending(() => Promise.resolve({ reason: 'wrong size', notify: { email: true } })));
    expect(answer.body).toEqual({
      object: 'thing',
      count: 1,
      warnings: [
        { path: 'reason', message: 'is not a field of this operation: ignored, not stored' },
        { path: 'notify', message: 'is not a field of this operation: ignored, not stored' },
      ],
    });
    expect(cancel.success.kind === 'json' && cancel.success.schema.safeParse(answer.body).success).toBe(true);
  });

  it('answers as before for no body, an empty object or a body that is no JSON; JSON that is no object is named whole', async () => {
    for (const json of [() => Promise.reject(new Error('empty')), () => Promise.resolve({})]) {
      expect((await cancel.handler(sending(json))).body).toEqual({ object: 'thing', count: 1 });
    }
    expect((await cancel.handler(sending(() => Promise.resolve([1, 2])))).body).toMatchObject({
      warnings: [{ path: '(body)', message: 'this operation reads no body: ignored' }],
    });
  });

  it('leaves reads and writes that declare their body alone', () => {
    const read = defineJsonOperation(ZAnswer, {
      ...base,
      success: { kind: 'json', status: 200, description: 'The thing.' },
      handler: () => Promise.resolve({ body: { object: 'thing', count: 1 } }),
    });
    expect(read.success).toMatchObject({ schema: ZAnswer });
  });
});
