import Papa from 'papaparse';

// The trailing line break a spreadsheet appends makes no extra row.
export function parseClipboardTable(text: string): string[][] {
  if (!text) return [];
  const result = Papa.parse<string[]>(text, { delimiter: '\t', newline: text.includes('\r\n') ? '\r\n' : undefined });
  const rows = result.data;
  while (rows.at(-1)?.every((cell) => cell === '')) rows.pop();
  return rows;
}
