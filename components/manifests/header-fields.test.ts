import { describe, expect, it } from 'vitest';
import { emptyHeader, ZHeaderForm } from './header-fields';

describe('ZHeaderForm (the manifest builder header form resolver schema)', () => {
  it('reports the API schema issues at each header field', () => {
    const result = ZHeaderForm.safeParse({ ...emptyHeader(), ContainerLength: 'abc', ServiceName: 'AirSkip' });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toContain('ContainerLength');
    expect(paths).toContain('ContainerID');
    expect(paths).not.toContain('ServiceName');
    expect(paths).not.toContain('ContainerDetails');
  });

  it('accepts a complete header as text', () => {
    const header = {
      ...emptyHeader(),
      ManifestDate: '2026-11-23',
      ServiceName: 'AirSkip',
      FromCompany: 'Acme',
      ContainerID: 'ULD-1',
      ContainerLength: '48',
      ContainerWidth: '40',
      ContainerHeight: '36',
      ShipmentDescription: 'Apparel',
      AWB: '000-12345675',
    };
    expect(ZHeaderForm.safeParse(header).error?.issues).toBeUndefined();
  });
});
