import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitTarget } from './node-adapter';

// What the pipeline sees: the path, and the query as parameters.
const seen = ({ pathname, search }: { pathname: string; search: string }) => ({ pathname, query: [...new URLSearchParams(search)] });
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
