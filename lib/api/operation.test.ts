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
