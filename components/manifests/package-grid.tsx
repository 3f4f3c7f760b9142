'use client';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { cn } from '@/components/ui';
import { isHeaderRow, mapHeaders, type ColumnMapping } from '@/lib/spreadsheets/column-names';
import { parseClipboardTable } from '@/lib/spreadsheets/tabular';
import { DETAIL_FIELDS, isBlankRow, type DetailField, type GridStore } from './grid-store';

// A spreadsheet-like grid over GridStore: one tab stop (roving tabindex), arrows / Tab / Enter to
// move, typing or F2 to edit, Escape to cancel, Delete to clear, paste of copied spreadsheet cells.
// Rows are virtualised, so 5,000 rows cost what 30 do.

const ROW_HEIGHT = 36;
const NUMBER_WIDTH = 112;
const WIDTHS: Partial<Record<DetailField, number>> = {
  TrackingNumber: 180,
  PackageWeightUnit: 160,
  PackageSizeLength: 160,
  PackageSizeHeight: 160,
  PackageSizeWidth: 150,
  ToName: 180,
  ToEmail: 200,
  ToAddress1: 200,
  ToAddress2: 160,
  CustomsDescription: 220,
  CustomsOriginCountry: 180,
  CustomsNetWeight: 160,
};
const widthOf = (field: DetailField) => WIDTHS[field] ?? 140;
const TOTAL_WIDTH = NUMBER_WIDTH + DETAIL_FIELDS.reduce((sum, f) => sum + widthOf(f), 0);

function useStoreValue<T>(store: GridStore, select: (store: GridStore) => T): T {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store),
    () => select(store),
  );
}

export function cellId(gridId: string, row: number, col: number) {
  return `${gridId}-r${row}-c${col}`;
}

export function PackageGrid({ store, id = 'packages' }: { store: GridStore; id?: string }) {
  const rowCount = useStoreValue(store, (s) => s.rows.length);
  const activeRow = useStoreValue(store, (s) => s.active.row);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [pasteNote, setPasteNote] = useState('');
  // The selected cell's error, shown under the grid and announced (a tooltip over the cell hid the next row).
  const activeError = useStoreValue(store, (s) => {
    const field = DETAIL_FIELDS[s.active.col];
    const error = field ? s.rows[s.active.row]?.errors?.[field] : undefined;
    return error && field ? `Row ${s.active.row + 1}, ${field}: ${error}` : '';
  });

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  useEffect(() => {
    if (store.focusInGrid) virtualizer.scrollToIndex(activeRow, { align: 'auto' });
  }, [activeRow, virtualizer, store]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (store.editing) return; // the editor handles its own keys
      const { row, col } = store.active;
      const last = DETAIL_FIELDS.length - 1;
      const key = event.key;
      const move = (r: number, c: number) => {
        event.preventDefault();
        if (event.shiftKey) store.extendTo(r, c);
        else store.moveTo(r, c);
      };
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey) {
        const letter = key.toLowerCase();
        const act = (fn: () => unknown) => {
          event.preventDefault();
          fn();
        };
        if (letter === 'z' && !event.shiftKey) return act(() => store.undo());
        if (letter === 'y' || (letter === 'z' && event.shiftKey)) return act(() => store.redo());
        if (letter === 'd') return act(() => store.fillDown());
        if (letter === 'a') {
          event.preventDefault();
          store.moveTo(0, 0);
          store.extendTo(store.rows.length - 1, last);
          return;
        }
      }
      if (key === 'ArrowDown') return move(row + 1, col);
      if (key === 'ArrowUp') return move(row - 1, col);
      if (key === 'ArrowRight') return move(row, col + 1);
      if (key === 'ArrowLeft') return move(row, col - 1);
      if (key === 'Home') return move(mod ? 0 : row, 0);
      if (key === 'End') return move(mod ? store.rows.length - 1 : row, last);
      if (key === 'PageDown') return move(row + 10, col);
      if (key === 'PageUp') return move(row - 10, col);
      // Tab leaves the grid (one tab stop, WAI-ARIA grid pattern): the browser moves focus on.
      if (key === 'Tab') return;
      if (key === 'Enter') {
        if (event.shiftKey) return move(row - 1, col);
        event.preventDefault();
        if (row === store.rows.length - 1) store.addRows(1);
        store.moveTo(row + 1, col);
        return;
      }
      if (key === 'F2') {
        event.preventDefault();
        flushSync(() => store.startEdit());
        return;
      }
      if (key === 'Delete' || key === 'Backspace') {
        event.preventDefault();
        store.clearSelection();
        return;
      }
      if (key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        // Typing replaces the cell's content, as in a spreadsheet. flushSync mounts the editor before
        // the next key arrives.
        event.preventDefault();
        flushSync(() => store.startEdit(key));
      }
    },
    [store],
  );

  // Ctrl+C and Ctrl+X: the selection as a spreadsheet's clipboard holds it (an open editor copies its own text).
  const onCopy = useCallback(
    (event: React.ClipboardEvent<HTMLDivElement>) => {
      if (store.editing) return;
      event.preventDefault();
      event.clipboardData.setData('text/plain', store.copyText());
      const r = store.range();
      const cells = (r.bottom - r.top + 1) * (r.right - r.left + 1);
      if (event.type === 'cut') store.clearSelection();
      setPasteNote(`${event.type === 'cut' ? 'Cut' : 'Copied'} ${cells} cell${cells === 1 ? '' : 's'}.`);
    },
    [store],
  );

  const onPaste = useCallback(
    (event: React.ClipboardEvent<HTMLDivElement>) => {
      const text = event.clipboardData.getData('text/plain');
      // A single value pasted while editing is ordinary text input.
      if (store.editing && !/[\t\r\n]/.test(text.replace(/[\r\n]+$/, ''))) return;
      event.preventDefault();
      let block = parseClipboardTable(text);
      if (block.length === 0) return;
      // A first row of column names ("Tracking #", "Weight (kg)", "Zip"…) maps the columns and is not pasted as a package.
      let mapping: ColumnMapping<DetailField> | undefined;
      if (block.length > 1 && isHeaderRow(block[0], DETAIL_FIELDS)) {
        mapping = mapHeaders(block[0], DETAIL_FIELDS);
        block = block.slice(1);
      }
      const { row, col } = store.active;
      const written = store.setBlock(row, mapping ? 0 : col, block, mapping);
      setPasteNote(`Pasted ${written} row${written === 1 ? '' : 's'}${mapping ? ' (columns matched by their header row)' : ''}.`);
    },
    [store],
  );

  const items = virtualizer.getVirtualItems();
  return (
    <div>
      <div
        ref={scrollRef}
        className="relative max-h-[28rem] overflow-auto rounded-md border border-slate-300 bg-white"
        style={{ height: Math.min(28 * 16, (rowCount + 1) * ROW_HEIGHT + 2) }}
      >
        <div
          role="grid"
          id={id}
          aria-label="Packages in the container"
          aria-rowcount={rowCount + 1}
          aria-colcount={DETAIL_FIELDS.length + 1}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onCopy={onCopy}
          onCut={onCopy}
          onFocus={() => store.setFocusInGrid(true)}
          onBlur={(e) => {
            // relatedTarget is null when the focused editor is removed: focus stays ours then.
            const next = e.relatedTarget as Node | null;
            if (next && !e.currentTarget.contains(next)) store.setFocusInGrid(false);
          }}
          style={{ width: TOTAL_WIDTH, height: virtualizer.getTotalSize() + ROW_HEIGHT }}
          className="relative text-sm"
        >
          <div
            role="row"
            aria-rowindex={1}
            className="sticky top-0 z-20 flex border-b border-slate-300 bg-slate-100"
            style={{ height: ROW_HEIGHT }}
          >
            <div
              role="columnheader"
              className="sticky left-0 z-10 flex items-center bg-slate-100 px-2 font-semibold text-slate-700"
              style={{ width: NUMBER_WIDTH }}
            >
              #
            </div>
            {DETAIL_FIELDS.map((field) => (
              <div
                key={field}
                role="columnheader"
                className="flex items-center truncate border-l border-slate-200 px-2 font-semibold text-slate-700"
                style={{ width: widthOf(field) }}
              >
                {field}
              </div>
            ))}
          </div>
          {items.map((item) => (
            <GridRowView key={item.key} store={store} index={item.index} top={item.start + ROW_HEIGHT} gridId={id} />
          ))}
        </div>
      </div>
      <p role="status" aria-live="polite" data-testid="cell-error" className="mt-1 min-h-5 text-sm font-medium text-red-800">
        {activeError}
      </p>
      <p className="mt-1 text-xs text-slate-600" aria-live="polite">
        {pasteNote ||
          'Arrows move, Shift+arrows select; type to edit, F2 to edit in place, Escape cancels, Delete clears. While typing, Tab and Enter move on. Ctrl+C, Ctrl+V, Ctrl+Z, Ctrl+Y and Ctrl+D (fill down) work as in a spreadsheet; Tab leaves the grid.'}
      </p>
    </div>
  );
}

const GridRowView = memo(function GridRowView({
  store,
  index,
  top,
  gridId,
}: {
  store: GridStore;
  index: number;
  top: number;
  gridId: string;
}) {
  const row = useStoreValue(store, (s) => s.rows[index]);
  const activeCol = useStoreValue(store, (s) => (s.active.row === index ? s.active.col : -1));
  const selected = useStoreValue(store, (s) => s.selectedColumns(index));
  const [selectedLeft, selectedRight] = selected ? selected.split('-').map(Number) : [-1, -1];
  const editing = useStoreValue(store, (s) => (s.active.row === index && s.editing ? s.editing.initial : null));
  if (!row) return null;
  const label = `row ${index + 1}`;
  // A filled row without the shipper's number: accepted, with only a carrier barcode (the builder asks first).
  const untracked = !isBlankRow(row.values) && !String(row.values.TrackingNumber ?? '').trim();
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-row={index}
      className={cn('absolute left-0 flex border-b border-slate-200', activeCol >= 0 ? 'bg-brand-50' : 'bg-white')}
      style={{ top, height: ROW_HEIGHT, width: TOTAL_WIDTH }}
    >
      <div
        role="rowheader"
        className={cn(
          'sticky left-0 z-10 flex items-center gap-1 border-r border-slate-200 px-2',
          activeCol >= 0 ? 'bg-brand-50' : 'bg-white',
        )}
        style={{ width: NUMBER_WIDTH }}
      >
        <span
          className={cn(
            'w-9 text-right tabular-nums',
            row.errors ? 'font-semibold text-red-700' : untracked ? 'font-semibold text-amber-800' : 'text-slate-600',
          )}
          title={untracked ? 'No tracking number: this package will get only a carrier barcode' : undefined}
          data-untracked={untracked || undefined}
        >
          {index + 1}
          {untracked ? <span className="sr-only"> (no tracking number)</span> : null}
        </span>
        <button
          type="button"
          tabIndex={-1}
          title={`Duplicate ${label}`}
          aria-label={`Duplicate ${label}`}
          onClick={() => store.duplicateRow(index)}
          className="rounded p-1 text-slate-600 hover:bg-slate-200 hover:text-slate-900"
        >
          <svg viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
            <rect x="5" y="5" width="9" height="9" rx="1.5" />
            <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
          </svg>
        </button>
        <button
          type="button"
          tabIndex={-1}
          title={`Remove ${label}`}
          aria-label={`Remove ${label}`}
          onClick={() => store.removeRow(index)}
          className="rounded p-1 text-slate-600 hover:bg-red-100 hover:text-red-800"
        >
          <svg
            viewBox="0 0 16 16"
            className="h-3.5 w-3.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            aria-hidden="true"
          >
            <path d="M4 4l8 8M12 4l-8 8" />
          </svg>
        </button>
      </div>
      {DETAIL_FIELDS.map((field, col) => (
        <GridCell
          key={field}
          store={store}
          gridId={gridId}
          row={index}
          col={col}
          field={field}
          value={row.values[field] ?? ''}
          error={row.errors?.[field]}
          active={activeCol === col}
          selected={col >= selectedLeft && col <= selectedRight}
          editing={activeCol === col ? editing : null}
        />
      ))}
    </div>
  );
});

const GridCell = memo(function GridCell({
  store,
  gridId,
  row,
  col,
  field,
  value,
  error,
  active,
  selected,
  editing,
}: {
  store: GridStore;
  gridId: string;
  row: number;
  col: number;
  field: DetailField;
  value: string;
  error: string | undefined;
  active: boolean;
  selected: boolean;
  editing: string | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const wasActive = useRef(false);
  const id = cellId(gridId, row, col);
  const errorId = `${id}-error`;

  useLayoutEffect(() => {
    if (active && editing === null && store.focusInGrid && document.activeElement !== ref.current) {
      ref.current?.focus({ preventScroll: false });
    }
  }, [active, editing, store]);

  return (
    <div
      ref={ref}
      id={id}
      role="gridcell"
      aria-colindex={col + 2}
      // Its value first, then where it is: "1.5, PackageWeight, row 3" (the value alone was hidden behind the label).
      aria-label={`${value || 'empty'}, ${field}, row ${row + 1}`}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
      aria-selected={active || selected}
      data-field={field}
      data-active={active ? 'true' : undefined}
      tabIndex={active ? 0 : -1}
      onMouseDown={(event) => {
        wasActive.current = active && document.activeElement === ref.current;
        store.setFocusInGrid(true);
        if (event.shiftKey) {
          event.preventDefault();
          store.extendTo(row, col);
        } else if (!active) store.moveTo(row, col);
      }}
      onClick={() => {
        // A second click (or a tap on a phone) on the selected cell edits it.
        if (wasActive.current && editing === null) flushSync(() => store.startEdit());
      }}
      onDoubleClick={() => store.startEdit()}
      className={cn(
        'relative flex items-center border-l border-slate-200 px-2 outline-none',
        selected && !active && 'bg-brand-100',
        error && 'bg-red-50 text-red-900 ring-1 ring-inset ring-red-600',
        active && 'z-[1] ring-2 ring-inset ring-brand-600',
      )}
      style={{ width: widthOf(field) }}
    >
      {editing !== null ? (
        <CellEditor
          store={store}
          row={row}
          col={col}
          initial={editing}
          label={`${field}, row ${row + 1}`}
          errorId={error ? errorId : undefined}
        />
      ) : (
        <span className="truncate">{value}</span>
      )}
      {error ? (
        <span id={errorId} className="sr-only">
          {error}
        </span>
      ) : null}
    </div>
  );
});

function CellEditor({
  store,
  row,
  col,
  initial,
  label,
  errorId,
}: {
  store: GridStore;
  row: number;
  col: number;
  initial: string;
  label: string;
  errorId?: string;
}) {
  const [draft, setDraft] = useState(initial);
  const inputRef = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, []);

  const commit = (next: { row: number; col: number }) => {
    if (next.row >= store.rows.length) {
      store.commitEdit();
      store.addRows(1);
    }
    store.moveTo(next.row, next.col);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const key = event.key;
    if (key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      store.cancelEdit();
      return;
    }
    // Tab moves right and Enter goes down, to the column a run of Tabs started from (as spreadsheets do).
    if (key === 'Tab' || key === 'Enter') {
      event.preventDefault();
      event.stopPropagation();
      if (key === 'Tab') store.tabFromEditor(event.shiftKey);
      else store.enterFromEditor(event.shiftKey);
      return;
    }
    let next: { row: number; col: number } | null = null;
    if (key === 'ArrowDown') next = { row: Math.min(row + 1, store.rows.length - 1), col };
    else if (key === 'ArrowUp') next = { row: Math.max(0, row - 1), col };
    if (next) {
      event.preventDefault();
      event.stopPropagation();
      commit(next);
    }
  };

  return (
    <input
      ref={inputRef}
      aria-label={label}
      aria-describedby={errorId}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        store.updateDraft(e.target.value);
      }}
      onKeyDown={onKeyDown}
      onBlur={() => store.commitEdit()}
      className="absolute inset-0 h-full w-full border-0 bg-white px-2 text-sm text-slate-900 outline-none ring-2 ring-inset ring-brand-600"
    />
  );
}
