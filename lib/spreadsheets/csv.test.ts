import { describe, expect, it } from 'vitest';
import { csvCell, neutraliseFormula, toCsv } from './csv';

describe('csv', () => {
  it.each([
    ['=HYPERLINK("x")', `'=HYPERLINK("x")`],
    ['+SUM(A1)', `'+SUM(A1)`],
    ['-A1', `'-A1`],
    ["-2+cmd|' /C calc'!A0", `'-2+cmd|' /C calc'!A0`],
    ['+1e5', `'+1e5`],
    ['+', `'+`],
    ['- ', `'- `],
    ['@SUM(A1)', `'@SUM(A1)`],
    // A phone number or a signed number stays usable: no letter, quote or | can make it a formula.
    ['+44 20 7946 0958', '+44 20 7946 0958'],
    ['+1 (555) 010-0199', '+1 (555) 010-0199'],
    ['-2', '-2'],
    ['-12.5', '-12.5'],
    ['+49/30/1234-5', '+49/30/1234-5'],
    ['\tcmd', `'\tcmd`],
    ['\rcmd', `'\rcmd`],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('neutralises %j', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
  });

  it('quotes commas, quotes and line breaks after neutralising', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
  });

  it('writes a header and CRLF-terminated rows', () => {
    expect(
      toCsv(
        ['A', 'B'],
        [
          ['1', '=x'],
          [null, 'y'],
        ],
      ),
    ).toBe(`A,B\r\n1,'=x\r\n,y\r\n`);
  });
});
