import { describe, expect, it } from 'vitest';
import { resourcesOf } from './resources';

describe('resourcesOf', () => {
  it('names what a package request made', () => {
    expect(
      resourcesOf({
        method: 'POST',
        path: '/wf/package',
        status: 200,
        response: { IsSuccess: true, ManifestID: 'MAN-1', TrackingNumber: '1Z9' },
      }),
    ).toEqual([
      { type: 'manifest', id: 'MAN-1' },
      { type: 'package', id: '1Z9' },
    ]);
  });

  it('names the ids in a path, decoded, once each', () => {
    expect(resourcesOf({ method: 'GET', path: '/manifests/MAN-1', status: 200, response: { ManifestID: 'MAN-1' } })).toEqual([
      { type: 'manifest', id: 'MAN-1' },
    ]);
    expect(resourcesOf({ method: 'POST', path: '/packages/1Z%20A/cancel', status: 409, response: undefined })).toEqual([
      { type: 'package', id: '1Z A' },
    ]);
    expect(resourcesOf({ method: 'GET', path: '/events/evt_1', status: 200, response: {} })).toEqual([
      { type: 'event', id: 'evt_1' },
    ]);
  });

  it('names a new webhook endpoint, and nothing of a refused request’s answer', () => {
    expect(
      resourcesOf({ method: 'POST', path: '/webhooks', status: 201, response: { object: 'webhook_endpoint', id: 'we_1' } }),
    ).toEqual([{ type: 'webhook_endpoint', id: 'we_1' }]);
    expect(resourcesOf({ method: 'POST', path: '/wf/package', status: 409, response: { ManifestID: 'MAN-1' } })).toEqual([]);
  });

  it('survives a malformed escape and lists', () => {
    expect(resourcesOf({ method: 'GET', path: '/manifests/%E0%A4%A', status: 200, response: undefined })).toEqual([]);
    expect(resourcesOf({ method: 'GET', path: '/packages/NOPE', status: 404, response: undefined })).toEqual([]);
    expect(resourcesOf({ method: 'GET', path: '/manifests', status: 200, response: { object: 'list', data: [] } })).toEqual([]);
    expect(resourcesOf({ method: 'POST', path: '/wf/rate', status: 200, response: [1, 2] })).toEqual([]);
  });
});
