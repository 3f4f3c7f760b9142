import { describe, expect, it } from 'vitest';
import { deprecationHeaders } from './deprecation';

describe('deprecation headers', () => {
  it('says since when (RFC 9745), until when (RFC 8594) and where to read, or nothing for a live route', () => {
    expect(deprecationHeaders(undefined)).toEqual({});
    expect(
      deprecationHeaders({
        since: '2026-12-01T00:00:00Z',
        sunset: '2027-06-01T00:00:00Z',
        link: 'https://carrier.example/docs/versioning#2026-12-01',
      }),
    ).toEqual({
      deprecation: '@1796083200',
      sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      link: '<https://carrier.example/docs/versioning#2026-12-01>; rel="deprecation"; type="text/html"',
    });
    expect(deprecationHeaders({ since: '2026-12-01T00:00:00Z', link: '/docs' })).not.toHaveProperty('sunset');
  });

  it('refuses a route table with a date that is none, or a sunset before the deprecation', () => {
    expect(() => deprecationHeaders({ since: 'soon', link: '/docs' })).toThrow(/no date/);
    expect(() => deprecationHeaders({ since: '2026-12-01', sunset: '2026-11-01', link: '/docs' })).toThrow(/after since/);
  });
});
