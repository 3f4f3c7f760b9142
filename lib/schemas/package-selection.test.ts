import { describe, expect, it } from 'vitest';
import { isCarrierBarcode, luhnCheckDigit } from './carrier-barcode';
import { LINK_IDS_MAX, packIds, unpackIds, ZPackageSelection } from './package-selection';

const barcode = (digits: string) => `CB${digits}${luhnCheckDigit(digits)}`;

describe('packed ids in a download link', () => {
  it('round-trips carrier barcodes, the smallest and the largest, eight characters each', () => {
    const ids = [barcode('000000000000'), barcode('999999999999'), barcode('123456789012')];
    expect(ids.every(isCarrierBarcode)).toBe(true);
    const packed = packIds(ids);
    expect(packed).toHaveLength(24);
    expect(unpackIds(packed)).toEqual(ids);
    const most = Array.from({ length: LINK_IDS_MAX }, (_, i) => barcode(String(i).padStart(12, '0')));
    expect(unpackIds(packIds(most))).toEqual(most);
  });

  it('refuses what is not a packed list: empty, partial, other characters, past twelve digits, one past the most', () => {
    for (const text of ['', 'abc', 'ABCDEFGH', '0000000!', 'zzzzzzzz', '0'.repeat(8 * (LINK_IDS_MAX + 1))])
      expect(unpackIds(text)).toBeUndefined();
  });
});

describe('a batch selection', () => {
  it('is ticked barcodes (deduplicated) or a filter, never both or neither', () => {
    const one = barcode('000000000001');
    expect(ZPackageSelection.parse({ carrier_barcodes: [one, one.toLowerCase()] })).toEqual({ carrierBarcodes: [one] });
    expect(ZPackageSelection.parse({ filter: { status: 'manifested' } }).filters?.status).toBe('manifested');
    expect(ZPackageSelection.safeParse({}).success).toBe(false);
    expect(ZPackageSelection.safeParse({ carrier_barcodes: [one], filter: {} }).success).toBe(false);
    const unknown = ZPackageSelection.safeParse({ filter: { account_id: 'x' } });
    expect(unknown.error?.issues.map((i) => i.path.join('.'))).toEqual(['filter.account_id']);
  });
});
