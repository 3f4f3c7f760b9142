// csv.ts's csvCell for the streamed exports' inner loop (a 100,000-row export is millions of cells): the same
// output (csv.test.ts and e2e/api/portal-packages.test.ts check it against csvCell), with a regex only for the
// rare cells that start with a sign, and no second string for values that need neither a quote nor quoting. Client-safe.

import { SIGNED_NUMBER } from './csv';

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell: csvCell(value), with an object written as JSON (as the packages export always has). */
export function exportCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  // An object or array as JSON; nothing else (a function, a symbol) comes out of stored JSON.
  else text = JSON.stringify(value) ?? '';
  const first = text.charCodeAt(0);
  // = @ TAB CR, or + - unless a phone number or a number: a spreadsheet would run it as a formula (csv.ts).
  if (
    first === 61 ||
    first === 64 ||
    first === 9 ||
    first === 13 ||
    ((first === 43 || first === 45) && !SIGNED_NUMBER.test(text))
  )
    text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The cells of `columns` of `values` as one CSV line, CRLF-terminated. */
export function exportLine(columns: readonly string[], values: Record<string, unknown>): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    if (i > 0) line += ',';
    if (column !== undefined) line += exportCell(values[column]);
  }
  return `${line}\r\n`;
}
