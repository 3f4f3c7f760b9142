'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Papa from 'papaparse';
import { useId, useRef, useState } from 'react';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import { Alert, Button, Select } from '@/components/ui';
import { headerDefaults, mapHeaders, mapRow, normaliseHeader, type ColumnMapping } from '@/lib/spreadsheets/column-names';
import { toCsv } from '@/lib/spreadsheets/csv';
import { MAX_CONTAINER_PACKAGES } from '@/lib/schemas/container-manifest';
import { IMPORT_MAPPING_COLUMNS_MAX } from '@/lib/schemas/import-mapping';
import type { TImportMappingResponse } from '@/lib/schemas/portal-responses';
import { DETAIL_FIELDS, isBlankRow, type DetailField, type GridStore, type RowValues } from './grid-store';

// Import in two steps: map the file's columns onto the package fields (the account's remembered mapping first,
// then field names, synonyms and units: lib/spreadsheets/column-names.ts), then read the rows. A CSV streams
// through papaparse in chunks so a large file shows its progress; a `;`-separated one (as spreadsheets in
// decimal-comma countries save) reads 1,5 as 1.5 in number columns. An Excel file (.xlsx) is read whole.

/** A file being imported: a CSV (streamed), or an Excel sheet's rows (read whole). */
type Source = { kind: 'csv'; file: File; delimiter: string } | { kind: 'xlsx'; file: File; rows: string[][] };

type Step =
  | { kind: 'idle' }
  | { kind: 'reading'; file: File }
  | { kind: 'mapping'; source: Source; headers: string[]; sample: string[]; preview: string[][]; fields: (DetailField | null)[] }
  | { kind: 'importing'; file: File; progress: number; rows: number }
  | { kind: 'done'; rows: number; skipped: number }
  | { kind: 'error'; message: string };

const CHUNK_BYTES = 16 * 1024;
const XLSX_MAX_BYTES = 20 * 1024 * 1024;
const NUMERIC: ReadonlySet<string> = new Set<DetailField>([
  'PackageWeight',
  'PackageSizeLength',
  'PackageSizeWidth',
  'PackageSizeHeight',
  'CustomsValue',
  'CustomsNetWeight',
]);

/** Rows shown as they will be created, before the import. */
const PREVIEW_ROWS = 3;

/** What a package is hard to handle without: an unmapped one is warned about before the import. */
const KEY_FIELDS: readonly { field: DetailField; label: string }[] = [
  { field: 'TrackingNumber', label: 'tracking number' },
  { field: 'PackageWeight', label: 'weight' },
  { field: 'ToPostalCode', label: 'destination postal code' },
];

/** An Excel cell as the text a CSV would hold. */
function cellText(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

const isXlsx = (file: File) =>
  /\.xlsx$/i.test(file.name) || file.type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The header row of every package field, as a CSV file to fill in. */
function downloadTemplate() {
  const blob = new Blob([toCsv(DETAIL_FIELDS, [])], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'container-packages-template.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function CsvImport({ store, onImported }: { store: GridStore; onImported?: (rows: number) => void }) {
  const portal = usePortalEnvironment();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  // The account's last mapping (both environments); an import without it still maps by names and synonyms. Fetched
  // when the builder opens; the PUT after an import answers the merged mapping, which replaces the cached one.
  const queryClient = useQueryClient();
  const mappingQuery = {
    queryKey: ['import-mapping'],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      portal.fetch<TImportMappingResponse>('/portal-api/import-mapping', { signal }),
    staleTime: 60_000,
  };
  useQuery(mappingQuery);
  const remember = useMutation({
    mutationFn: (columns: Record<string, string>) =>
      portal.fetch<TImportMappingResponse>('/portal-api/import-mapping', { method: 'PUT', body: { columns } }),
    onSuccess: (merged) => queryClient.setQueryData(['import-mapping'], merged),
  });

  async function startMapping(source: Source, headers: string[], rows: string[][]) {
    const sample = rows[0] ?? [];
    if (headers.every((h) => !h.trim())) return setStep({ kind: 'error', message: `${source.file.name} has no header row.` });
    // A file chosen before the remembered mapping arrived waits for it (one small GET, already in flight) rather than
    // being mapped without it: CI caught a file chosen right after the page opened coming out unremembered.
    const remembered = await queryClient.ensureQueryData(mappingQuery).then(
      (data) => data.columns,
      () => ({}),
    );
    const mapping = mapHeaders(headers, DETAIL_FIELDS, remembered);
    setStep({ kind: 'mapping', source, headers, sample, preview: rows.slice(0, PREVIEW_ROWS), fields: mapping.fields });
    setMode(store.rows.some((r) => !isBlankRow(r.values)) ? 'append' : 'replace');
  }

  function chooseFile(file: File | undefined) {
    if (!file) return;
    if (isXlsx(file)) {
      if (file.size > XLSX_MAX_BYTES)
        return setStep({ kind: 'error', message: `${file.name} is larger than 20 MB; save it as CSV to import it.` });
      setStep({ kind: 'reading', file });
      import('read-excel-file/browser')
        .then(({ readSheet }) => readSheet(file))
        .then((data) => {
          const rows = data.map((row) => row.map(cellText)).filter((row) => row.some((cell) => cell.trim() !== ''));
          if (rows.length === 0) return setStep({ kind: 'error', message: `${file.name} is empty.` });
          void startMapping({ kind: 'xlsx', file, rows }, rows[0] ?? [], rows.slice(1, 1 + PREVIEW_ROWS));
        })
        .catch((error: unknown) =>
          setStep({
            kind: 'error',
            message: `Could not read ${file.name} as an Excel workbook: ${error instanceof Error ? error.message : String(error)}`,
          }),
        );
      return;
    }
    Papa.parse<string[]>(file, {
      preview: 1 + PREVIEW_ROWS,
      skipEmptyLines: 'greedy',
      complete: (result) => {
        const [headers = [], ...rows] = result.data;
        if (headers.length === 0) return setStep({ kind: 'error', message: `${file.name} is empty.` });
        void startMapping({ kind: 'csv', file, delimiter: result.meta.delimiter }, headers, rows);
      },
      error: (error) => setStep({ kind: 'error', message: `Could not read ${file.name}: ${error.message}` }),
    });
  }

  /** The mapping, remembered for the account by normalised header (a column left unmapped is remembered as ignored). */
  function rememberMapping(headers: string[], fields: (DetailField | null)[]) {
    const columns: Record<string, string> = {};
    headers.forEach((header, i) => {
      const key = normaliseHeader(header);
      if (key && key.length <= 100 && !Object.hasOwn(columns, key)) columns[key] = fields[i] ?? '';
    });
    const entries = Object.entries(columns).slice(0, IMPORT_MAPPING_COLUMNS_MAX);
    if (entries.length > 0) remember.mutate(Object.fromEntries(entries));
  }

  function finish(file: File, rows: RowValues[], skipped: number) {
    if (mode === 'replace') store.replaceRows(rows);
    else store.appendRows(rows);
    setStep({ kind: 'done', rows: rows.length, skipped });
    onImported?.(rows.length);
    if (inputRef.current) inputRef.current.value = '';
  }

  function runImport(source: Source, headers: string[], fields: (DetailField | null)[]) {
    const mapping: ColumnMapping<DetailField> = { fields, defaults: headerDefaults(headers, fields, DETAIL_FIELDS) };
    const options = { decimalComma: source.kind === 'csv' && source.delimiter === ';', numeric: NUMERIC };
    rememberMapping(headers, fields);
    const rows: RowValues[] = [];
    let skipped = 0;
    const take = (line: string[]) => {
      const values = mapRow(line, mapping, options);
      if (isBlankRow(values)) skipped++;
      else rows.push(values);
    };
    if (source.kind === 'xlsx') {
      source.rows.slice(1).forEach(take);
      finish(source.file, rows, skipped);
      return;
    }
    const file = source.file;
    let first = true;
    setStep({ kind: 'importing', file, progress: 0, rows: 0 });
    Papa.parse<string[]>(file, {
      skipEmptyLines: 'greedy',
      delimiter: source.delimiter,
      chunkSize: CHUNK_BYTES,
      chunk: (result) => {
        for (const line of result.data) {
          if (first) {
            first = false; // the header row
            continue;
          }
          take(line);
        }
        const progress = Math.min(99, Math.round((result.meta.cursor / Math.max(file.size, 1)) * 100));
        setStep({ kind: 'importing', file, progress, rows: rows.length });
      },
      complete: () => finish(file, rows, skipped),
      error: (error) => setStep({ kind: 'error', message: `Could not read ${file.name}: ${error.message}` }),
    });
  }

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-md border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          Import a spreadsheet
        </h3>
        <label htmlFor={`${id}-file`} className="text-sm text-slate-700">
          CSV or Excel file
        </label>
        <input
          ref={inputRef}
          id={`${id}-file`}
          type="file"
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          disabled={step.kind === 'importing' || step.kind === 'reading'}
          onChange={(e) => chooseFile(e.target.files?.[0])}
          className="max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-100"
        />
        <Button variant="secondary" size="sm" onClick={downloadTemplate}>
          Download CSV template
        </Button>
      </div>

      {step.kind === 'mapping' ? (
        <div className="mt-3 space-y-3">
          <p className="text-sm text-slate-700">
            Match the columns of <strong>{step.source.file.name}</strong> to package fields. Columns named like a field (or as in
            your last import) are matched already
            {step.source.kind === 'csv' && step.source.delimiter === ';' ? '; numbers written 1,5 are read as 1.5' : ''}.
          </p>
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm">
              <thead>
                <tr className="text-left text-slate-700">
                  <th scope="col" className="py-1 pr-3 font-semibold">
                    CSV column
                  </th>
                  <th scope="col" className="hidden py-1 pr-3 font-semibold sm:table-cell">
                    First value
                  </th>
                  <th scope="col" className="py-1 font-semibold">
                    Package field
                  </th>
                </tr>
              </thead>
              <tbody>
                {step.headers.map((header, i) => (
                  <tr key={i} className="border-t border-slate-200">
                    <td className="max-w-[8rem] break-all py-1 pr-3 font-mono text-xs sm:max-w-none">
                      {header || `(column ${i + 1})`}
                    </td>
                    <td className="hidden max-w-[12rem] truncate py-1 pr-3 text-slate-600 sm:table-cell">
                      {step.sample[i] ?? ''}
                    </td>
                    <td className="py-1">
                      <Select
                        aria-label={`Field for column ${header || i + 1}`}
                        value={step.fields[i] ?? ''}
                        onChange={(e) => {
                          const fields = step.fields.slice();
                          const chosen = DETAIL_FIELDS.find((f) => f === e.target.value) ?? null;
                          // A field is one column's: choosing it here frees it elsewhere.
                          for (let j = 0; j < fields.length; j++) if (chosen && fields[j] === chosen) fields[j] = null;
                          fields[i] = chosen;
                          setStep({ ...step, fields });
                        }}
                        className="min-w-[10rem] py-1"
                      >
                        <option value="">Ignore this column</option>
                        {DETAIL_FIELDS.map((f) => (
                          <option key={f} value={f}>
                            {f}
                          </option>
                        ))}
                      </Select>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">Rows already in the grid</legend>
            <label className="inline-flex items-center gap-2">
              <input type="radio" name={`${id}-mode`} checked={mode === 'replace'} onChange={() => setMode('replace')} /> Replace
              the rows in the grid
            </label>
            <label className="inline-flex items-center gap-2">
              <input type="radio" name={`${id}-mode`} checked={mode === 'append'} onChange={() => setMode('append')} /> Add after
              them
            </label>
          </fieldset>
          {step.fields.every((m) => m === null) ? (
            <Alert tone="warning">No column is mapped to a field yet.</Alert>
          ) : (
            <MappingCheck step={step} />
          )}
          <div className="flex gap-2">
            <Button
              onClick={() => runImport(step.source, step.headers, step.fields)}
              disabled={step.fields.every((m) => m === null)}
            >
              Import rows
            </Button>
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}

      {step.kind === 'reading' ? (
        <p className="mt-3 text-sm text-slate-700" aria-live="polite">
          Reading {step.file.name}…
        </p>
      ) : null}

      {step.kind === 'importing' ? (
        <div className="mt-3 space-y-1">
          <div
            role="progressbar"
            aria-label="Import progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={step.progress}
            className="h-2 w-full overflow-hidden rounded bg-slate-200"
          >
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${step.progress}%` }} />
          </div>
          <p className="text-sm text-slate-700" aria-live="polite">
            Reading {step.file.name}: {step.rows.toLocaleString()} rows ({step.progress}%)
          </p>
        </div>
      ) : null}

      {step.kind === 'done' ? (
        <div className="mt-3">
          <Alert tone={step.rows > MAX_CONTAINER_PACKAGES ? 'warning' : 'success'}>
            Imported {step.rows.toLocaleString()} rows{step.skipped ? `, skipped ${step.skipped} empty` : ''}.
            {step.rows > MAX_CONTAINER_PACKAGES
              ? ` A container holds at most ${MAX_CONTAINER_PACKAGES.toLocaleString()} packages.`
              : ''}
          </Alert>
        </div>
      ) : null}
      {step.kind === 'error' ? (
        <div className="mt-3">
          <Alert tone="danger">{step.message}</Alert>
        </div>
      ) : null}
    </section>
  );
}

/** The key fields left unmapped, and the file's first rows as the grid will hold them with this mapping. */
function MappingCheck({ step }: { step: Extract<Step, { kind: 'mapping' }> }) {
  const missing = KEY_FIELDS.filter((k) => !step.fields.includes(k.field));
  const mapping: ColumnMapping<DetailField> = {
    fields: step.fields,
    defaults: headerDefaults(step.headers, step.fields, DETAIL_FIELDS),
  };
  const options = { decimalComma: step.source.kind === 'csv' && step.source.delimiter === ';', numeric: NUMERIC };
  const rows = step.preview.map((line) => mapRow(line, mapping, options));
  const shown = DETAIL_FIELDS.filter((f) => rows.some((r) => r[f] !== undefined) || KEY_FIELDS.some((k) => k.field === f));
  return (
    <div className="space-y-3">
      {missing.length ? (
        <Alert tone="warning">
          <p className="font-medium">
            Not mapped: {missing.map((k) => k.label).join(', ')}. Every imported row will be without{' '}
            {missing.length === 1 ? 'it' : 'them'}.
          </p>
          {missing.some((k) => k.field === 'TrackingNumber') ? (
            <p>Packages without a tracking number get only a carrier barcode; you will be asked before they are created.</p>
          ) : null}
        </Alert>
      ) : null}
      {rows.length ? (
        <div
          role="region"
          aria-label="Import preview"
          tabIndex={0}
          className="overflow-x-auto rounded-md border border-slate-200 bg-white"
        >
          <table className="min-w-full text-sm">
            <caption className="px-3 pt-2 text-left text-sm font-medium text-slate-800">
              The first {rows.length === 1 ? 'row' : `${rows.length} rows`} as {rows.length === 1 ? 'it' : 'they'} will be created
            </caption>
            <thead>
              <tr className="text-left text-slate-700">
                {shown.map((f) => (
                  <th key={f} scope="col" className="whitespace-nowrap px-3 py-1 font-semibold">
                    {f}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i} className="border-t border-slate-200">
                  {shown.map((f) => (
                    <td key={f} className="whitespace-nowrap px-3 py-1 font-mono text-xs">
                      {r[f] ?? <span className="text-amber-800">(none)</span>}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
