import { describe, expect, it } from 'vitest';
import { changedFields, emptyHeader, ZAmendForm, ZHeaderForm, type AmendValues } from './header-fields';

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

describe('changedFields (the air cargo header amendment the manifest page sends)', () => {
  const before: AmendValues = {
    AWB: '020-12345675',
    ULD: '',
    SealNumber: 'S-1',
    FlightNumber: '',
    FlightDate: '',
    OriginAirport: 'JFK',
    DestinationAirport: 'FRA',
    SecurityStatus: 'SPX',
    SecurityScreeningMethod: 'XRY',
    SecurityIssuedBy: '',
  };

  it('sends only the fields that changed, an emptied one as null', () => {
    expect(changedFields({ ...before, FlightNumber: ' LH401 ', SealNumber: '', OriginAirport: 'JFK ' }, before)).toEqual({
      FlightNumber: 'LH401',
      SealNumber: null,
    });
    expect(changedFields(before, before)).toEqual({});
  });

  it('sends the security declaration whole when one of its inputs changed, null when emptied', () => {
    expect(changedFields({ ...before, SecurityIssuedBy: 'RA-DE-0001' }, before)).toEqual({
      Security: { Status: 'SPX', ScreeningMethod: 'XRY', IssuedBy: 'RA-DE-0001' },
    });
    expect(changedFields({ ...before, SecurityStatus: '', SecurityScreeningMethod: '' }, before)).toEqual({ Security: null });
  });

  it('asks for the security Status with a screening method or issuer; other rules are the API’s', () => {
    const paths = (values: AmendValues) => ZAmendForm.safeParse(values).error?.issues.map((i) => i.path.join('.'));
    expect(paths({ ...before, SecurityStatus: '' })).toEqual(['SecurityStatus']);
    expect(paths({ ...before, AWB: '020-12345670' })).toBeUndefined();
  });
});
