import { describe, expect, it } from 'vitest';
import { autoMapColumns, isHeaderRow, mapRow, parseClipboardTable } from './tabular';

const FIELDS = ['TrackingNumber', 'PackageWeight', 'PackageWeightUnit', 'ToAddress1'] as const;

describe('parseClipboardTable', () => {
  it('reads Excel TSV with CRLF and a trailing line break', () => {
    expect(parseClipboardTable('TN1\t1.5\tlb\r\nTN2\t2\tkg\r\n')).toEqual([
      ['TN1', '1.5', 'lb'],
      ['TN2', '2', 'kg'],
    ]);
  });

  it('reads quoted cells holding tabs, quotes and line breaks (Google Sheets)', () => {
    expect(parseClipboardTable('"a\tb"\t"say ""hi"""\n"line\nbreak"\tx\n')).toEqual([
      ['a\tb', 'say "hi"'],
      ['line\nbreak', 'x'],
    ]);
  });

  it('keeps empty cells and a single cell', () => {
    expect(parseClipboardTable('a\t\tc')).toEqual([['a', '', 'c']]);
    expect(parseClipboardTable('only')).toEqual([['only']]);
    expect(parseClipboardTable('')).toEqual([]);
  });
});

describe('column mapping', () => {
  it('maps headers case-insensitively and ignores unknown or repeated ones', () => {
    expect(autoMapColumns(['trackingnumber', 'Package Weight', 'notes', 'TRACKINGNUMBER'], FIELDS)).toEqual([
      'TrackingNumber',
      'PackageWeight',
      null,
      null,
    ]);
  });

  it('recognises a header row', () => {
    expect(isHeaderRow(['TrackingNumber', 'packageweight', ''], FIELDS)).toBe(true);
    expect(isHeaderRow(['TN1', '1.5'], FIELDS)).toBe(false);
    expect(isHeaderRow(['', ''], FIELDS)).toBe(false);
  });

  it('maps a row through the mapping, dropping ignored and empty cells', () => {
    expect(mapRow(['TN1', ' 2 ', 'x', ''], ['TrackingNumber', 'PackageWeight', null, 'ToAddress1'])).toEqual({
      TrackingNumber: 'TN1',
      PackageWeight: '2',
    });
  });
});
