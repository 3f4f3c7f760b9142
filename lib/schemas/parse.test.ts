import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { CONTAINER_MANIFEST_ALIASES, ZContainerManifestRequest } from './container-manifest';
import { PACKAGE_MANIFEST_ALIASES, ZPackageManifestRequest } from './package-manifest';
import { parseOperation } from './parse';
import { RATE_ALIASES, ZRateRequest } from './rate';

const rate = { weight: 1, weight_unit: 'lb', width: 2, height: 3 };

function failure(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('published aliases', () => {
  it('accepts both length and lenght', () => {
    expect(parseOperation(ZRateRequest, { ...rate, length: 4 }, { aliases: RATE_ALIASES }).length).toBe('4');
    expect(parseOperation(ZRateRequest, { ...rate, lenght: 5 }, { aliases: RATE_ALIASES }).length).toBe('5');
  });

  it('reports an error under the spelling the client sent', () => {
    const error = failure(() => parseOperation(ZRateRequest, { ...rate, lenght: 'long' }, { aliases: RATE_ALIASES }));
    expect(error.details).toEqual([{ path: 'lenght', message: 'must be a number' }]);
    const missing = failure(() => parseOperation(ZRateRequest, rate, { aliases: RATE_ALIASES }));
    expect(missing.details).toEqual([{ path: 'length', message: 'is required' }]);
  });

  it('refuses both spellings with different values', () => {
    const error = failure(() => parseOperation(ZRateRequest, { ...rate, length: 4, lenght: 5 }, { aliases: RATE_ALIASES }));
    expect(error.details).toEqual([{ path: 'lenght', message: 'conflicts with length; send one of them' }]);
    expect(parseOperation(ZRateRequest, { ...rate, length: 4, lenght: '4' }, { aliases: RATE_ALIASES }).length).toBe('4');
  });

  it('never changes the body it was given, and keeps a "__proto__" key a key', () => {
    const body = JSON.parse(
      '{"weight":1,"weight_unit":"lb","width":2,"height":3,"lenght":5,"__proto__":{"polluted":true}}',
    ) as Record<string, unknown>;
    const before = JSON.stringify(body);
    expect(parseOperation(ZRateRequest, body, { aliases: RATE_ALIASES }).length).toBe('5');
    expect(JSON.stringify(body)).toBe(before);
    expect(Object.hasOwn(body, 'lenght')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('maps the container spellings to one shape', () => {
    const base = {
      ServiceName: 'AirSkip',
      FromCompany: 'A',
      ContainerID: 'C',
      ContainerLength: 1,
      ContainerWidth: 1,
      ContainerHeight: 1,
      ShipmentDescription: 'x',
    };
    for (const body of [
      { ...base, FromPostalcode: '07114', 'Container Weight': 12, 'Container Name': 7 },
      { ...base, FromPostalCode: '07114', ContainerWeight: '12', ContainerName: '7' },
    ]) {
      const { header } = parseOperation(ZContainerManifestRequest, body, { aliases: CONTAINER_MANIFEST_ALIASES });
      expect(header).toMatchObject({ FromPostalCode: '07114', ContainerWeight: '12', ContainerName: '7' });
    }
  });

  it('applies package aliases inside the package object and reports package.* paths', () => {
    const error = failure(() =>
      parseOperation(
        ZPackageManifestRequest,
        { package: { FromPostalcode: 'nope' } },
        { aliases: PACKAGE_MANIFEST_ALIASES, at: 'package' },
      ),
    );
    expect(error.details).toContainEqual({ path: 'package.FromPostalcode', message: expect.stringContaining('postal code') });
  });

  it('treats empty service, origin and destination as no value', () => {
    const parsed = parseOperation(
      ZRateRequest,
      { ...rate, lenght: 1, service: '', origin: '', destination: '' },
      { aliases: RATE_ALIASES },
    );
    expect(parsed.service).toBeUndefined();
    expect(parsed.origin).toBeUndefined();
  });

  it('refuses an unknown service by name', () => {
    const error = failure(() =>
      parseOperation(ZRateRequest, { ...rate, lenght: 1, service: 'Carrier Overnight' }, { aliases: RATE_ALIASES }),
    );
    expect(error.details).toEqual([{ path: 'service', message: 'must be one of: AirSkip, Carrier Express, Carrier Ground' }]);
  });
});
