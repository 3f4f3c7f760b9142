'use client';
import { forwardRef, useSyncExternalStore } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { DETAIL_FIELDS, type GridStore } from './grid-store';
import { HEADER_FIELDS, HEADER_GROUPS, type HeaderField, type HeaderValues } from './header-fields';

/** Problems listed at most; the count covers them all. */
const LISTED_MAX = 200;

const LABELS = new Map<HeaderField, string>(HEADER_GROUPS.flatMap((g) => g.fields.map((f) => [f.name, f.label] as const)));

interface PanelProps {
  store: GridStore;
  headerErrors: FieldErrors<HeaderValues>;
  /** Messages the server gave that belong to no field or cell. */
  unplaced: readonly string[];
  onGoField: (field: HeaderField) => void;
  onGoCell: (row: number, col: number) => void;
}

/**
 * Every problem that stops the manifest, grouped (header fields, then packages row by row), each a link to its
 * field or cell, recounted as fixes are made. Nothing is shown when there is nothing to fix. Its heading takes
 * focus after a refused submit (manifest-builder.tsx), so a screen reader hears the count first.
 */
export const ErrorPanel = forwardRef<HTMLHeadingElement, PanelProps>(function ErrorPanel(
  { store, headerErrors, unplaced, onGoField, onGoCell },
  headingRef,
) {
  const rows = useSyncExternalStore(
    store.subscribe,
    () => store.rows,
    () => store.rows,
  );
  const header = HEADER_FIELDS.flatMap((field) => {
    const message = headerErrors[field]?.message;
    return message ? [{ field, message }] : [];
  });
  const cells: { row: number; col: number; field: string; message: string }[] = [];
  let cellCount = 0;
  let rowCount = 0;
  rows.forEach((r, row) => {
    if (!r.errors) return;
    rowCount++;
    DETAIL_FIELDS.forEach((field, col) => {
      const message = r.errors?.[field];
      if (!message) return;
      cellCount++;
      if (cells.length < LISTED_MAX) cells.push({ row, col, field, message });
    });
  });
  const total = header.length + cellCount + unplaced.length;
  if (total === 0) return null;
  const link = 'text-left font-medium text-red-900 underline underline-offset-2 hover:text-red-950';
  return (
    <section
      aria-labelledby="error-panel-title"
      data-testid="error-panel"
      className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900"
    >
      <h2 id="error-panel-title" ref={headingRef} tabIndex={-1} className="text-base font-semibold">
        {total} problem{total === 1 ? '' : 's'} to fix before this manifest can be created
      </h2>
      {unplaced.length ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {unplaced.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      {header.length ? (
        <div className="mt-3">
          <h3 className="font-semibold">Manifest details ({header.length})</h3>
          <ul className="mt-1 space-y-1">
            {header.map(({ field, message }) => (
              <li key={field}>
                <button type="button" className={link} onClick={() => onGoField(field)}>
                  {LABELS.get(field) ?? field}: {message}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {cellCount ? (
        <div className="mt-3">
          <h3 className="font-semibold">
            Packages ({cellCount} in {rowCount} row{rowCount === 1 ? '' : 's'})
          </h3>
          <ul className="mt-1 max-h-60 space-y-1 overflow-y-auto pr-2">
            {cells.map(({ row, col, field, message }) => (
              <li key={`${row}-${field}`}>
                <button type="button" className={link} onClick={() => onGoCell(row, col)}>
                  Row {row + 1}, {field}: {message}
                </button>
              </li>
            ))}
          </ul>
          {cellCount > cells.length ? (
            <p className="mt-1">…and {(cellCount - cells.length).toLocaleString()} more; fix these first.</p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
});
