import { describe, expect, it } from 'vitest';
import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { CUSTOMS_CELLS } from '@/lib/schemas/customs-cells';
import { isHeaderRow, mapHeaders, mapRow, matchHeader } from './column-names';

const DETAIL_FIELDS = Object.keys(ZContainerDetail.shape);

describe('matchHeader', () => {
  // Everyday headers: only one of them was matched by exact field names.
  it.each([
    ['Tracking Number', 'TrackingNumber'],
    ['Tracking #', 'TrackingNumber'],
    ['tracking_no', 'TrackingNumber'],
    ['Weight (lb)', 'PackageWeight'],
    ['Weight', 'PackageWeight'],
    ['Unit', 'PackageWeightUnit'],
    ['Zip', 'ToPostalCode'],
    ['ZIP Code', 'ToPostalCode'],
    ['Postcode', 'ToPostalCode'],
    ['Email', 'ToEmail'],
    ['E-mail', 'ToEmail'],
    ['Recipient Name', 'ToName'],
    ['Phone', 'ToPhone'],
    ['Address Line 1', 'ToAddress1'],
    ['Address 2', 'ToAddress2'],
    ['City', 'ToCity'],
    ['State/Province', 'ToState'],
    ['Country', 'ToCountry'],
    ['Length', 'PackageSizeLength'],
    ['PACKAGESIZEWIDTH', 'PackageSizeWidth'],
    ['  height  ', 'PackageSizeHeight'],
  ])('%j is %s', (header, field) => {
    expect(matchHeader(header, DETAIL_FIELDS)?.field).toBe(field);
  });

  const WITH_CUSTOMS = [...DETAIL_FIELDS, ...CUSTOMS_CELLS];
  it.each([
    ['HS code', 'CustomsHSCode'],
    ['HS-Code', 'CustomsHSCode'],
    ['Zolltarifnummer', 'CustomsHSCode'],
    ['Code SH', 'CustomsHSCode'],
    ['Código arancelario', 'CustomsHSCode'],
    ['Description', 'CustomsDescription'],
    ['Warenbeschreibung', 'CustomsDescription'],
    ['Désignation', 'CustomsDescription'],
    ['Descripción', 'CustomsDescription'],
    ['Declared value', 'CustomsValue'],
    ['Warenwert', 'CustomsValue'],
    ['Valeur', 'CustomsValue'],
    ['Valeur déclarée', 'CustomsValue'],
    ['Valor', 'CustomsValue'],
    ['Currency', 'CustomsCurrency'],
    ['Währung', 'CustomsCurrency'],
    ['Devise', 'CustomsCurrency'],
    ['Moneda', 'CustomsCurrency'],
    ['Country of origin', 'CustomsOriginCountry'],
    ['Ursprungsland', 'CustomsOriginCountry'],
    ["Pays d'origine", 'CustomsOriginCountry'],
    ['País de origen', 'CustomsOriginCountry'],
    ['Qty', 'CustomsQuantity'],
    ['Stückzahl', 'CustomsQuantity'],
    ['Quantité', 'CustomsQuantity'],
    ['Cantidad', 'CustomsQuantity'],
    ['Net weight', 'CustomsNetWeight'],
    ['Nettogewicht', 'CustomsNetWeight'],
    ['Poids net', 'CustomsNetWeight'],
    ['Peso neto', 'CustomsNetWeight'],
    ['Sendungsnummer', 'TrackingNumber'],
    ['Numéro de suivi', 'TrackingNumber'],
    ['Número de seguimiento', 'TrackingNumber'],
    ['Empfänger', 'ToName'],
    ['Straße', 'ToAddress1'],
    ['PLZ', 'ToPostalCode'],
    ['Code postal', 'ToPostalCode'],
    ['Código postal', 'ToPostalCode'],
    ['Ville', 'ToCity'],
    ['País', 'ToCountry'],
    ['Gewicht (kg)', 'PackageWeight'],
    ['Poids', 'PackageWeight'],
  ])('%j is %s (customs columns; German, French and Spanish names)', (header, field) => {
    expect(matchHeader(header, WITH_CUSTOMS)?.field).toBe(field);
  });

  it('knows a German header row from data, accents and ß folded', () => {
    expect(
      isHeaderRow(['Sendungsnummer', 'Gewicht (kg)', 'Zolltarifnummer', 'Warenbeschreibung', 'Warenwert'], WITH_CUSTOMS),
    ).toBe(true);
    expect(isHeaderRow(['1Z0001', '2,5', '6109100010', 'Baumwoll-T-Shirt', '12,50'], WITH_CUSTOMS)).toBe(false);
    expect(mapHeaders(['País de origen', 'Gewicht (kg)'], WITH_CUSTOMS)).toEqual({
      fields: ['CustomsOriginCountry', 'PackageWeight'],
      defaults: [{ field: 'PackageWeightUnit', value: 'kg' }],
    });
  });

  it('reads a weight unit in brackets, and only on a weight column', () => {
    expect(matchHeader('Weight (kg)', DETAIL_FIELDS)).toEqual({ field: 'PackageWeight', unit: 'kg' });
    expect(matchHeader('Gross weight [LBS]', DETAIL_FIELDS)).toEqual({ field: 'PackageWeight', unit: 'lb' });
    expect(matchHeader('weight(oz)', DETAIL_FIELDS)).toEqual({ field: 'PackageWeight', unit: 'oz' });
    expect(matchHeader('Length (kg)', DETAIL_FIELDS)).toEqual({ field: 'PackageSizeLength' });
  });

  it('matches nothing for unknown, empty or hostile headers', () => {
    for (const header of [
      'Notes',
      '',
      '   ',
      '###',
      '\u0000',
      '(kg)',
      'x'.repeat(10_000),
      'constructor',
      '__proto__',
      'toString',
    ]) {
      expect(matchHeader(header, DETAIL_FIELDS), JSON.stringify(header.slice(0, 20))).toBeNull();
    }
  });
});

describe('mapHeaders', () => {
  it('maps each field once, the first column that names it; a unit becomes a default', () => {
    expect(mapHeaders(['Tracking #', 'Weight (kg)', 'Notes', 'tracking number', 'Zip'], DETAIL_FIELDS)).toEqual({
      fields: ['TrackingNumber', 'PackageWeight', null, null, 'ToPostalCode'],
      defaults: [{ field: 'PackageWeightUnit', value: 'kg' }],
    });
  });

  it('uses a remembered mapping first, where an empty field means ignore; unknown remembered names are not trusted', () => {
    const remembered = { ref: 'ToAddress2', zip: '', notes: 'NotAField' };
    expect(mapHeaders(['Ref', 'Zip', 'Notes'], DETAIL_FIELDS, remembered).fields).toEqual(['ToAddress2', null, null]);
    // A remembered column's header unit still counts, whatever its name.
    expect(mapHeaders(['Gewicht (kg)'], DETAIL_FIELDS, { gewichtkg: 'PackageWeight' })).toEqual({
      fields: ['PackageWeight'],
      defaults: [{ field: 'PackageWeightUnit', value: 'kg' }],
    });
  });
});

describe('isHeaderRow', () => {
  it('tells a header row from a package row', () => {
    expect(isHeaderRow(['Tracking Number', 'Weight', 'Unit', 'Notes'], DETAIL_FIELDS)).toBe(true);
    expect(isHeaderRow(['TrackingNumber', 'packageweight', ''], DETAIL_FIELDS)).toBe(true);
    expect(isHeaderRow(['Zip'], DETAIL_FIELDS)).toBe(true);
    expect(isHeaderRow(['1Z999AA10123456784', '1.5', 'lb', 'Pat Doe', 'Newark', '07114'], DETAIL_FIELDS)).toBe(false);
    expect(isHeaderRow(['TN1', '1.5'], DETAIL_FIELDS)).toBe(false);
    expect(isHeaderRow(['', ''], DETAIL_FIELDS)).toBe(false);
    // One known word among many others is data, not a header.
    expect(isHeaderRow(['City', 'a', 'b', 'c'], DETAIL_FIELDS)).toBe(false);
  });
});

describe('mapRow', () => {
  const mapping = mapHeaders(['Tracking', 'Weight (kg)', 'Notes', 'Length'], DETAIL_FIELDS);
  const numeric = new Set(['PackageWeight', 'PackageSizeLength']);

  it('trims, drops ignored and empty cells, and fills the header unit', () => {
    expect(mapRow(['TN1', ' 2 ', 'x', ''], mapping)).toEqual({
      TrackingNumber: 'TN1',
      PackageWeight: '2',
      PackageWeightUnit: 'kg',
    });
  });

  it('reads a decimal comma in numeric fields of a ;-separated file, nowhere else', () => {
    expect(mapRow(['TN,1', '1,5', 'x', '10,25'], mapping, { decimalComma: true, numeric })).toEqual({
      TrackingNumber: 'TN,1',
      PackageWeight: '1.5',
      PackageSizeLength: '10.25',
      PackageWeightUnit: 'kg',
    });
    // A thousands separator or text is left for the schema to refuse with its own message.
    expect(mapRow(['T', '1,234,5', '', '1,5kg'], mapping, { decimalComma: true, numeric })).toMatchObject({
      PackageWeight: '1,234,5',
      PackageSizeLength: '1,5kg',
    });
    expect(mapRow(['T', '1,5', '', ''], mapping)).toMatchObject({ PackageWeight: '1,5' });
  });
});
