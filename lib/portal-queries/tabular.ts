import Papa from 'papaparse';

// Tabular text from spreadsheets and CSV files, mapped onto a schema's field names. Client-safe:
// the manifest builder uses it for paste and CSV import.

/** Lower case without spaces, underscores or hyphens: "Tracking Number" matches TrackingNumber. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

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

/** For each header, the field whose name matches it case-insensitively, or null (ignored). */
export function autoMapColumns<F extends string>(headers: readonly string[], fields: readonly F[]): (F | null)[] {
  const byName = new Map(fields.map((f) => [normalise(f), f] as const));
  const used = new Set<F>();
  return headers.map((header) => {
    const field = byName.get(normalise(header));
    if (!field || used.has(field)) return null;
    used.add(field);
    return field;
  });
}

/** True when every non-empty cell of the row names a field: a header row, not data. */
export function isHeaderRow(row: readonly string[], fields: readonly string[]): boolean {
  const names = new Set(fields.map(normalise));
  const filled = row.filter((cell) => cell.trim() !== '');
  return filled.length > 0 && filled.every((cell) => names.has(normalise(cell)));
}

/** Turns one parsed CSV line into field values through a column mapping. */
export function mapRow<F extends string>(cells: readonly string[], mapping: readonly (F | null)[]): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  mapping.forEach((field, i) => {
    const cell = cells[i]?.trim();
    if (field && cell) out[field] = cell;
  });
  return out;
}
