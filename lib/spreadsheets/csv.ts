// CSV for spreadsheets: RFC 4180 quoting, CRLF line ends, and formula-injection neutralising.
// Client-safe (no server imports) so the builder can reuse the same rules.

/** A cell a spreadsheet would run as a formula starts with one of these (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A sign followed only by digits, spaces and . , ( ) / - (with at least one digit): a phone number such as
 * +44 20 7946 0958 or a number such as -12.5. A spreadsheet reads it at most as a number or arithmetic on
 * numbers; without a letter, a quote or a `|` it cannot call a function, name a cell or start a program, so
 * it is written as it is rather than spoiled with a quote.
 */
export const SIGNED_NUMBER = /^[+-][\d .,()/-]*\d[\d .,()/-]*$/;

/**
 * Prefixes a single quote to a value a spreadsheet would evaluate as a formula: one that starts with
 * = @ TAB or CR, or with + or - unless it is a SIGNED_NUMBER. docs/decisions/exports.md gives the rule.
 */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
}

export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  // A nested object (never expected in a package's detail) is written as JSON, not as "[object Object]".
  const text = neutraliseFormula(
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
        ? String(value)
        : JSON.stringify(value),
  );
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
