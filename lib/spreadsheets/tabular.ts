import Papa from 'papaparse';

// Tabular text from spreadsheets, for the manifest builder's paste (column-names.ts maps its header row onto
// the package fields). Client-safe.

/**
 * Cells copied from Excel or Google Sheets: tab-separated, CRLF or LF rows, cells with tabs, quotes or
 * line breaks quoted. The trailing line break a spreadsheet appends does not make an extra row.
 */
export function parseClipboardTable(text: string): string[][] {
  if (!text) return [];
  const result = Papa.parse<string[]>(text, { delimiter: '\t', newline: text.includes('\r\n') ? '\r\n' : undefined });
  const rows = result.data;
  while (rows.at(-1)?.every((cell) => cell === '')) rows.pop();
  return rows;
}
