// csv.ts's csvCell for the exports' inner loop (millions of cells): the same output (csv.test.ts compares them), with no
// regex and no second string for most cells. Client-safe.

import { SIGNED_NUMBER } from './csv';

const NEEDS_QUOTES = /[",\r\n]/;

export function exportCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
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

export function exportLine(columns: readonly string[], values: Record<string, unknown>): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    if (i > 0) line += ',';
    if (column !== undefined) line += exportCell(values[column]);
  }
  return `${line}\r\n`;
}
