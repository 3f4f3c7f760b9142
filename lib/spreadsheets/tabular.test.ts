import { describe, expect, it } from 'vitest';
import { parseClipboardTable } from './tabular';

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
