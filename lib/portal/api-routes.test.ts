import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedSource, OUTPUT } from '../../scripts/generate-portal-routes.mjs';
import { portalApiMethodRefusal, portalApiMethods } from './api-routes';

describe('the portal API route table', () => {
  it('is what scripts/generate-portal-routes.mjs writes from app/portal-api now', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generatedSource());
  });

  it('matches dynamic segments, adds HEAD to GET and OPTIONS to every route, and knows no path outside it', () => {
    expect(portalApiMethods('/portal-api/webhooks/we_123/deliveries/att_9/redeliver')).toEqual(['POST', 'OPTIONS']);
    expect(portalApiMethods('/portal-api/packages')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(portalApiMethods('/portal-api/packages/')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(portalApiMethods('/portal-api/nope')).toBeUndefined();
    expect(portalApiMethods('/portal-api/webhooks/a/b/c/d/e')).toBeUndefined();
    expect(portalApiMethodRefusal('GET', '/portal-api/packages')).toBeUndefined();
    expect(portalApiMethodRefusal('PUT', '/portal-api/nope')).toBeUndefined();
    const refusal = portalApiMethodRefusal('PUT', '/portal-api/packages');
    expect(refusal?.code).toBe('method_not_allowed');
    expect(refusal?.allowed).toBe('GET, HEAD, OPTIONS');
  });

  it('prefers a static segment to a parameter: /invoices/close is not /invoices/:id', () => {
    expect(portalApiMethods('/portal-api/invoices/close')).toEqual(['POST', 'OPTIONS']);
    expect(portalApiMethods('/portal-api/invoices/inv_0123')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(portalApiMethodRefusal('POST', '/portal-api/invoices/close')).toBeUndefined();
  });
});
