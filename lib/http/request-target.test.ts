import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routingTarget, splitTarget } from './request-target';

// What the API sees: the path, and the query as parameters.
const seen = ({ pathname, search }: { pathname: string; search: string }) => ({
  pathname,
  query: [...new URLSearchParams(search)],
});
const parsed = (target: string) => seen(new URL(target, 'http://localhost'));

describe('splitTarget', () => {
  it.each([
    '/version-test/api/1.1/wf/rate',
    '/api/1.1/webhooks?limit=5&cursor=a%20b',
    '/api/1.1/wf/rate?',
    '/api/1.1/wf/./rate',
    '/api/1.1/wf/../wf/rate',
    '//api/1.1/wf/rate',
    '/api/1.1/wf/rate/',
    '/api/1.1/wf/r%61te',
    '/api/1.1\\wf/rate',
    '/.well-known/x',
    '/api/1.1/webhooks?limit=5#frag',
  ])('reads %s as the URL parser does', (target) => {
    expect(seen(splitTarget(target))).toEqual(parsed(target));
  });

  it('agrees with the URL parser on any target', () => {
    // Characters a request line can carry (no spaces: HTTP's delimiter), URL-significant ones weighted in.
    const char = fc.constantFrom(...'/./..?%2Fa1_-~=&\\#'.split(''), 'api', '1.1', 'wf', 'rate', '%2e', '%20');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (parts) => {
        const target = `/${parts.join('')}`;
        if (URL.canParse(target, 'http://localhost')) expect(seen(splitTarget(target))).toEqual(parsed(target));
        else expect(splitTarget(target).pathname).toBe(target.split('?')[0]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('routingTarget', () => {
  it('keeps a plain target as it is (the same string)', () => {
    const target = '/version-test/api/1.1/webhooks?limit=5';
    expect(routingTarget(target)).toBe(target);
  });

  it.each([
    ['/api/1.1/wf/rate/', '/api/1.1/wf/rate'],
    ['/api/1.1/wf/rate//?x=1', '/api/1.1/wf/rate?x=1'],
    ['/api/1.1/webhooks/..', '/api/1.1'],
    ['/api/1.1/wf/./rate', '/api/1.1/wf/rate'],
    ['/version-test/api/1.1/webhooks/%ZZ', '/version-test/api/1.1/webhooks/%00'],
    ['/version-test/api/1.1/webhooks/%E0%A4/deliveries', '/version-test/api/1.1/webhooks/%00/deliveries'],
    ['/version-test/api/1.1/webhooks/%', '/version-test/api/1.1/webhooks/%00'],
    ['/version-test/api/1.1/webhooks/a%20b', '/version-test/api/1.1/webhooks/a%20b'],
    ['/', '/'],
  ])('routes %s as %s', (target, expected) => {
    expect(routingTarget(target)).toBe(expected);
  });

  it('always gives a path that decodes, never throwing', () => {
    const char = fc.constantFrom(...'/./..?%2Fa1_-~=&\\#'.split(''), '%ZZ', '%E0%A4', '%', '%00', 'webhooks', '%ED%A0%80');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (parts) => {
        const routed = routingTarget(`/${parts.join('')}`);
        const path = routed.split('?')[0] ?? '';
        if (path.startsWith('/') && !path.startsWith('//')) expect(() => decodeURIComponent(path)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
