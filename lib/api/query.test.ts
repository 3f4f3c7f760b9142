import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { portalQuery } from '@/lib/portal/package-list-query';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import { queryObject } from './query';

function refusal(read: () => unknown): { code: string; details: unknown } {
  try {
    read();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe("the API's query reader", () => {
  const known = ['limit', 'cursor'] as const;
  const read = (search: string) => queryObject(new URLSearchParams(search), { known });

  it('reads each known parameter once, empty values kept', () => {
    expect(read('limit=5&cursor=')).toEqual({ limit: '5', cursor: '' });
    expect(read('')).toEqual({});
  });

  it('refuses a parameter given twice, and one it does not know, naming it', () => {
    expect(refusal(() => read('limit=1&limit=2'))).toEqual({
      code: 'validation_failed',
      details: [{ path: 'limit', message: 'is given more than once' }],
    });
    expect(refusal(() => read('limit=1&limit='))).toEqual({
      code: 'validation_failed',
      details: [{ path: 'limit', message: 'is given more than once' }],
    });
    expect(refusal(() => read(`${'x'.repeat(300)}=1`))).toEqual({
      code: 'validation_failed',
      details: [{ path: 'x'.repeat(100), message: 'is not a known parameter; use limit, cursor' }],
    });
  });
});

describe("the portal's query reader", () => {
  const read = (search: string) => portalQuery(`http://localhost/portal-api/packages${search}`);

  it('decodes every escape, leaves the environment out and empty values out', () => {
    expect(read(`?status=in_transit&tracking_number=1Z%2D9&service=Air+Skip%20X&${ENVIRONMENT_QUERY}=live&to=`)).toEqual({
      status: 'in_transit',
      tracking_number: '1Z-9',
      service: 'Air Skip X',
    });
    expect(read('')).toEqual({});
    // An empty first value is no value: the second is not a repeat.
    expect(read('?status=&status=delivered')).toEqual({ status: 'delivered' });
  });

  it('refuses a repeat, an escape that does not decode and a character a filter cannot hold, naming the parameter', () => {
    expect(refusal(() => read('?status=a&status=b'))).toEqual({
      code: 'validation_failed',
      details: [{ path: 'status', message: 'is given more than once' }],
    });
    expect(refusal(() => read('?service=%ZZ'))).toEqual({
      code: 'validation_failed',
      details: [{ path: 'service', message: 'is not correctly percent-encoded' }],
    });
    expect(refusal(() => read('?%ZZ=1'))).toEqual({
      code: 'validation_failed',
      details: [{ path: '%ZZ', message: 'is not correctly percent-encoded' }],
    });
    expect(refusal(() => read('?tracking_number=1Z%25'))).toEqual({
      code: 'validation_failed',
      details: [{ path: 'tracking_number', message: 'a tracking number holds letters, digits, "-", "_" and "." only' }],
    });
  });
});
