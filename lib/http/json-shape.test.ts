import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { httpStatus } from './errors';
import { MAX_JSON_CONTAINERS, MAX_JSON_DEPTH, MAX_JSON_OBJECT_MEMBERS, MAX_JSON_VALUES, assertJsonShape } from './json-shape';

const pad = (json: string) => json.replace(/}$/, `,"pad":"${'x'.repeat(40_000)}"}`);

function refusal(text: string): string | undefined {
  try {
    assertJsonShape(text);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_json');
    expect(httpStatus(error as AppError)).toBe(400);
    return (error as AppError).message;
  }
}

describe('assertJsonShape', () => {
  it('lets a manifest of 5,000 packages through', () => {
    const manifest = JSON.stringify({
      ContainerID: 'C1',
      ContainerDetails: Array.from({ length: 5000 }, (_, i) => ({
        TrackingNumber: `TN${i}`,
        PackageWeight: 2.5,
        ToName: 'Ann "[{" Lee',
        Dims: [1, 2, 3],
      })),
    });
    expect(refusal(manifest)).toBeUndefined();
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels, and not at ${MAX_JSON_DEPTH}`, () => {
    const nested = (depth: number) => pad(`{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`);
    expect(refusal(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).toMatch(/deeper than 64/);
    expect(refusal(`${'['.repeat(2_500_000)}${']'.repeat(2_500_000)}`)).toMatch(/deeper/);
  });

  it('refuses more objects and arrays than any request has', () => {
    const objects = (n: number) => `[${Array(n).fill('{}').join(',')}]`;
    expect(refusal(objects(MAX_JSON_CONTAINERS - 1))).toBeUndefined();
    expect(refusal(objects(MAX_JSON_CONTAINERS))).toMatch(/more than 100,000 objects and arrays/);
  });

  it('refuses more values than any request has, but leaves long arrays under that to the schemas', () => {
    expect(refusal(`[${Array(500_000).fill(1).join(',')}]`)).toBeUndefined();
    expect(
      refusal(
        `[${Array(MAX_JSON_VALUES + 2)
          .fill(1)
          .join(',')}]`,
      ),
    ).toMatch(/more than 1,000,000 values/);
  });

  it(`refuses an object of more than ${MAX_JSON_OBJECT_MEMBERS} members, at any depth, but not an array that long`, () => {
    const wide = (n: number) =>
      `{"a":[1,{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}],"pad":"${'x'.repeat(40_000)}"}`;
    expect(refusal(wide(MAX_JSON_OBJECT_MEMBERS))).toBeUndefined();
    expect(refusal(wide(MAX_JSON_OBJECT_MEMBERS + 1))).toMatch(/more than 1,000 members/);
    expect(refusal(`[${Array(50_000).fill('1').join(',')}]`)).toBeUndefined();
  });

  it('counts nothing inside strings, escaped quotes included', () => {
    const text = pad(JSON.stringify({ a: `\\"${'[{,'.repeat(400_000)}\\\\`, b: '"' }));
    expect(refusal(text)).toBeUndefined();
  });

  it('leaves malformed JSON to JSON.parse', () => {
    expect(refusal(pad('{"a":"unterminated'))).toBeUndefined();
    expect(refusal(']]]]' + 'x'.repeat(40_000))).toBeUndefined();
  });
});
