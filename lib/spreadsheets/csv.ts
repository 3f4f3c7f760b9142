// RFC 4180 quoting, CRLF line ends, formula neutralising. Client-safe, so the builder reuses the same rules.

// A cell a spreadsheet would run as a formula (OWASP "CSV injection"; the rule: docs/decisions/exports.md).
const FORMULA_START = /^[=+\-@\t\r]/;

// A phone number or a signed number has no letter, quote or `|`, so it cannot call a function or start a program: it is
// written as it is rather than spoiled with a quote.
export const SIGNED_NUMBER = /^[+-][\d .,()/-]*\d[\d .,()/-]*$/;

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
