'use client';
import Papa from 'papaparse';
import { useId, useRef, useState } from 'react';
import { Alert, Button, Select } from '@/components/ui';
import { MAX_CONTAINER_PACKAGES } from '@/lib/schemas/container-manifest';
import { autoMapColumns, mapRow } from '@/lib/portal-queries/tabular';
import { DETAIL_FIELDS, isBlankRow, type DetailField, type GridStore, type RowValues } from './grid-store';

// CSV import in two steps: map the file's columns onto the package fields (auto-mapped by name),
// then stream the file through papaparse in chunks so a large file shows its progress.

type Step =
  | { kind: 'idle' }
  | { kind: 'mapping'; file: File; headers: string[]; sample: string[]; mapping: (DetailField | null)[] }
  | { kind: 'importing'; file: File; progress: number; rows: number }
  | { kind: 'done'; rows: number; skipped: number }
  | { kind: 'error'; message: string };

const CHUNK_BYTES = 16 * 1024;

export function CsvImport({ store, onImported }: { store: GridStore; onImported?: (rows: number) => void }) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [mode, setMode] = useState<'replace' | 'append'>('replace');
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  function chooseFile(file: File | undefined) {
    if (!file) return;
    Papa.parse<string[]>(file, {
      preview: 2,
      skipEmptyLines: 'greedy',
      complete: (result) => {
        const [headers = [], sample = []] = result.data;
        if (headers.length === 0) return setStep({ kind: 'error', message: `${file.name} is empty.` });
        setStep({ kind: 'mapping', file, headers, sample, mapping: autoMapColumns(headers, DETAIL_FIELDS) });
        const hasRows = store.rows.some((r) => !isBlankRow(r.values));
        setMode(hasRows ? 'append' : 'replace');
      },
      error: (error) => setStep({ kind: 'error', message: `Could not read ${file.name}: ${error.message}` }),
    });
  }

  function runImport(file: File, mapping: (DetailField | null)[]) {
    const rows: RowValues[] = [];
    let skipped = 0;
    let first = true;
    setStep({ kind: 'importing', file, progress: 0, rows: 0 });
    Papa.parse<string[]>(file, {
      skipEmptyLines: 'greedy',
      chunkSize: CHUNK_BYTES,
      chunk: (result) => {
        for (const line of result.data) {
          if (first) {
            first = false; // the header row
            continue;
          }
          const values = mapRow(line, mapping);
          if (isBlankRow(values)) skipped++;
          else rows.push(values);
        }
        const progress = Math.min(99, Math.round((result.meta.cursor / Math.max(file.size, 1)) * 100));
        setStep({ kind: 'importing', file, progress, rows: rows.length });
      },
      complete: () => {
        if (mode === 'replace') store.replaceRows(rows);
        else store.appendRows(rows);
        setStep({ kind: 'done', rows: rows.length, skipped });
        onImported?.(rows.length);
        if (inputRef.current) inputRef.current.value = '';
      },
      error: (error) => setStep({ kind: 'error', message: `Could not read ${file.name}: ${error.message}` }),
    });
  }

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-md border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          Import a CSV
        </h3>
        <label htmlFor={`${id}-file`} className="text-sm text-slate-700">
          CSV file
        </label>
        <input
          ref={inputRef}
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          disabled={step.kind === 'importing'}
          onChange={(e) => chooseFile(e.target.files?.[0])}
          className="max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-100"
        />
      </div>

      {step.kind === 'mapping' ? (
        <div className="mt-3 space-y-3">
          <p className="text-sm text-slate-700">
            Match the columns of <strong>{step.file.name}</strong> to package fields. Columns named like a field are matched
            already.
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
                    <td className="max-w-[8rem] break-all py-1 pr-3 font-mono text-xs sm:max-w-none">{header || `(column ${i + 1})`}</td>
                    <td className="hidden max-w-[12rem] truncate py-1 pr-3 text-slate-600 sm:table-cell">{step.sample[i] ?? ''}</td>
                    <td className="py-1">
                      <Select
                        aria-label={`Field for column ${header || i + 1}`}
                        value={step.mapping[i] ?? ''}
                        onChange={(e) => {
                          const mapping = step.mapping.slice();
                          mapping[i] = (e.target.value || null) as DetailField | null;
                          setStep({ ...step, mapping });
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
          {step.mapping.every((m) => m === null) ? <Alert tone="warning">No column is mapped to a field yet.</Alert> : null}
          <div className="flex gap-2">
            <Button onClick={() => runImport(step.file, step.mapping)} disabled={step.mapping.every((m) => m === null)}>
              Import rows
            </Button>
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              Cancel
            </Button>
          </div>
        </div>
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
