import { describe, expect, it } from 'vitest';
import { checkExchange } from '@/e2e/api/support/contract';

// The API suite's contract check (e2e/api/support/contract.ts) must see drift, or its silence means nothing.

const exchange = (over: Partial<Parameters<typeof checkExchange>[0]>) =>
  checkExchange({
    method: 'POST',
    path: '/wf/manifest',
    status: 200,
    contentType: 'application/json',
    requestBody: undefined,
    responseBody: {},
    ...over,
  });

describe('the contract check', () => {
  it('passes what the document describes', () => {
    expect(exchange({ responseBody: { IsSuccess: 'true', ManifestID: 'MAN-1', PackageCount: 0 } })).toEqual([]);
    expect(
      exchange({
        status: 422,
        responseBody: { error: { code: 'validation_failed', message: 'x', details: [{ path: 'a', message: 'b' }] } },
      }),
    ).toEqual([]);
    expect(
      exchange({
        method: 'GET',
        path: '/events?limit=1',
        responseBody: { object: 'list', data: [], has_more: false, next_cursor: null },
      }),
    ).toEqual([]);
  });

  it('names a missing field, an undocumented status, an unknown error code and an accepted body the document refuses', () => {
    expect(exchange({ responseBody: { IsSuccess: 'true', PackageCount: 1 } }).join()).toContain(
      "must have required property 'ManifestID'",
    );
    expect(exchange({ status: 202, responseBody: { IsSuccess: 'true', ManifestID: 'MAN-1', PackageCount: 1 } }).join()).toContain(
      'status 202 is not documented',
    );
    expect(exchange({ status: 409, responseBody: { error: { code: 'no_such_code', message: 'x' } } }).join()).toContain(
      'error envelope',
    );
    expect(
      exchange({
        method: 'GET',
        path: '/events',
        responseBody: { object: 'list', data: [{ id: 1 }], has_more: false, next_cursor: null },
      }),
    ).not.toEqual([]);
    expect(
      exchange({
        path: '/wf/rate',
        responseBody: { rates: [] },
        requestBody: { weight: 'heavy', weight_unit: 'lb', length: 1, width: 1, height: 1 },
      }).join(),
    ).toContain('request');
    expect(exchange({ method: 'GET', path: '/nowhere', responseBody: {} }).join()).toContain('undocumented operation');
  });

  it("leaves what is not the API's JSON alone", () => {
    expect(exchange({ contentType: 'application/pdf', responseBody: undefined })).toEqual([]);
    expect(exchange({ status: 404, method: 'GET', path: '/nowhere', contentType: 'text/html', responseBody: undefined })).toEqual(
      [],
    );
  });
});
