import type { ColumnMapping } from '@/lib/spreadsheets/column-names';
import { ZContainerDetail, ZContainerPackage } from '@/lib/schemas/container-manifest';
import { CUSTOMS_CELLS, customsCellOf, customsFromCells, type CustomsCell } from '@/lib/schemas/customs-cells';

// The package grid's state lives outside React: rows are immutable objects in an array, and each
// visible row subscribes to its own object (useSyncExternalStore), so a keystroke re-renders one
// row, not five thousand.

type PackageField = keyof typeof ZContainerDetail.shape;
export type DetailField = PackageField | CustomsCell;
const PACKAGE_FIELDS = Object.keys(ZContainerDetail.shape) as PackageField[];
/** The grid's columns: the package's fields in the schema's order, then its declaration's (one item a row). */
export const DETAIL_FIELDS: readonly DetailField[] = [...PACKAGE_FIELDS, ...CUSTOMS_CELLS];

export type RowValues = Partial<Record<DetailField, string>>;
export type RowErrors = Partial<Record<DetailField, string>>;

export interface GridRow {
  readonly key: number;
  readonly values: RowValues;
  /** Null when the row is valid (or blank). */
  readonly errors: RowErrors | null;
}

export interface Cell {
  row: number;
  col: number;
}

/** A rectangle of cells, inclusive. */
export interface Range {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Undo keeps this many steps. */
const HISTORY_LIMIT = 200;

/** A cell as a spreadsheet's clipboard holds it: quoted when it holds a tab, a line break or a quote. */
function clipboardCell(text: string): string {
  return /[\t\r\n"]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const LB_PER_UNIT: Record<string, number> = { lb: 1, kg: 2.20462, oz: 1 / 16 };

export function isBlankRow(values: RowValues): boolean {
  return DETAIL_FIELDS.every((f) => !values[f]?.trim());
}

/** The row as the API receives it: only the cells that hold something, the customs cells as its `Customs`. */
export function rowPayload(values: RowValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of PACKAGE_FIELDS) {
    const value = values[field]?.trim();
    if (value) out[field] = value;
  }
  const declaration = customsFromCells(values, values.PackageWeightUnit);
  if (declaration) out.Customs = declaration;
  return out;
}

/** Validates one row with the API's own ZContainerPackage schema, each issue on its cell. */
export function validateRow(values: RowValues): RowErrors | null {
  if (isBlankRow(values)) return null;
  const result = ZContainerPackage.safeParse(rowPayload(values));
  if (result.success) return null;
  const errors: RowErrors = {};
  for (const issue of result.error.issues) {
    const [head, ...rest] = issue.path;
    const field = head === 'Customs' ? customsCellOf(rest) : (head as DetailField | undefined);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

type Listener = () => void;

export class GridStore {
  rows: GridRow[] = [];
  active: Cell = { row: 0, col: 0 };
  /**
   * The open editor: the text it started with (the typed character, or the cell's value) and what it
   * holds now. Moving away commits the draft; Escape drops it.
   */
  editing: { initial: string; draft: string } | null = null;
  /** True while focus is in the grid: only then does a move focus the new active cell. */
  focusInGrid = false;
  /** The other corner of a Shift-selected range (null: only the active cell is selected). */
  anchor: Cell | null = null;
  /** Where a run of Tabs from the editor started: Enter then returns to this column, as spreadsheets do. */
  private tabStartCol: number | null = null;
  /** Rows before each edit (Ctrl+Z) and the ones undone (Ctrl+Y): arrays of immutable rows, so a step is cheap. */
  private past: GridRow[][] = [];
  private future: GridRow[][] = [];
  private nextKey = 1;
  private listeners = new Set<Listener>();

  constructor(initial: RowValues[] = [{}, {}, {}]) {
    this.rows = initial.map((values) => this.makeRow(values));
  }

  setFocusInGrid(value: boolean) {
    this.focusInGrid = value;
  }

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private emit() {
    for (const listener of this.listeners) listener();
  }

  private makeRow(values: RowValues, validate = true): GridRow {
    return { key: this.nextKey++, values, errors: validate ? validateRow(values) : null };
  }

  get columnCount() {
    return DETAIL_FIELDS.length;
  }

  values(): RowValues[] {
    return this.rows.map((r) => r.values);
  }

  setCell(row: number, col: number, value: string) {
    const current = this.rows[row];
    const field = DETAIL_FIELDS[col];
    if (!current || !field || (current.values[field] ?? '') === value) return;
    this.record();
    const values = { ...current.values, [field]: value };
    this.rows = this.rows.slice();
    this.rows[row] = { key: current.key, values, errors: validateRow(values) };
    this.emit();
  }

  /** Remembers the rows as they are before an edit, for undo; a new edit forgets what was undone. */
  private record() {
    this.past.push(this.rows);
    if (this.past.length > HISTORY_LIMIT) this.past.shift();
    this.future = [];
  }

  get canUndo() {
    return this.past.length > 0 || this.editing !== null;
  }

  get canRedo() {
    return this.future.length > 0;
  }

  /** Ctrl+Z: an open editor is dropped first; otherwise the last edit (typing, paste, fill, import, row removal) is undone. */
  undo(): boolean {
    if (this.editing) {
      this.cancelEdit();
      return true;
    }
    const previous = this.past.pop();
    if (!previous) return false;
    this.future.push(this.rows);
    this.restore(previous);
    return true;
  }

  /** Ctrl+Y (or Ctrl+Shift+Z): the last undone edit again. */
  redo(): boolean {
    const next = this.future.pop();
    if (!next) return false;
    this.past.push(this.rows);
    this.restore(next);
    return true;
  }

  private restore(rows: GridRow[]) {
    this.commitDraft();
    this.rows = rows.length ? rows : [this.makeRow({})];
    this.active = { row: Math.min(this.active.row, this.rows.length - 1), col: this.active.col };
    this.anchor = null;
    this.editing = null;
    this.emit();
  }

  /** The selected rectangle: the range from the anchor to the active cell, or the active cell alone. */
  range(): Range {
    const a = this.anchor ?? this.active;
    const b = this.active;
    return {
      top: Math.min(a.row, b.row),
      bottom: Math.max(a.row, b.row),
      left: Math.min(a.col, b.col),
      right: Math.max(a.col, b.col),
    };
  }

  /** The selected columns of a row as "left-right", or '' when the row is outside the selection (for rendering). */
  selectedColumns(row: number): string {
    const r = this.range();
    return row >= r.top && row <= r.bottom ? `${r.left}-${r.right}` : '';
  }

  /** Shift+arrow, Shift+click: moves the active cell and keeps (or sets) the anchor, selecting the rectangle between. */
  extendTo(row: number, col: number) {
    this.commitDraft();
    const anchor = this.anchor ?? { ...this.active };
    this.moveTo(row, col);
    this.anchor = anchor.row === this.active.row && anchor.col === this.active.col ? null : anchor;
    this.emit();
  }

  /** The selection as a spreadsheet's clipboard holds it: tab-separated, CRLF rows. */
  copyText(): string {
    const r = this.range();
    const lines: string[] = [];
    for (let row = r.top; row <= r.bottom; row++) {
      const values = this.rows[row]?.values ?? {};
      const cells: string[] = [];
      for (let col = r.left; col <= r.right; col++) cells.push(clipboardCell(values[DETAIL_FIELDS[col]] ?? ''));
      lines.push(cells.join('\t'));
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  /** Delete: empties every selected cell, in one undo step. */
  clearSelection() {
    this.commitDraft();
    const r = this.range();
    const fields = DETAIL_FIELDS.slice(r.left, r.right + 1);
    const touched = this.rows.slice(r.top, r.bottom + 1).some((row) => fields.some((f) => row.values[f]));
    if (!touched) return;
    this.record();
    this.rows = this.rows.map((row, i) => {
      if (i < r.top || i > r.bottom || !fields.some((f) => row.values[f])) return row;
      const values = { ...row.values };
      for (const f of fields) delete values[f];
      return { key: row.key, values, errors: validateRow(values) };
    });
    this.emit();
  }

  /**
   * Ctrl+D: the top row of the selection is copied into the rows below it, column by column; with one row
   * selected, the row above is copied into it (as spreadsheets do).
   */
  fillDown() {
    this.commitDraft();
    const r = this.range();
    const sourceRow = r.top === r.bottom ? r.top - 1 : r.top;
    const source = this.rows[sourceRow];
    if (!source) return;
    const fields = DETAIL_FIELDS.slice(r.left, r.right + 1);
    this.record();
    this.rows = this.rows.map((row, i) => {
      if (i <= sourceRow || i < r.top || i > r.bottom) return row;
      const values = { ...row.values };
      for (const f of fields) {
        const v = source.values[f];
        if (v) values[f] = v;
        else delete values[f];
      }
      return { key: row.key, values, errors: validateRow(values) };
    });
    this.emit();
  }

  /** Tab from the editor: commit and move right, remembering where the run of Tabs started. */
  tabFromEditor(backwards: boolean) {
    const { row, col } = this.active;
    const last = DETAIL_FIELDS.length - 1;
    if (this.tabStartCol === null) this.tabStartCol = col;
    const tabStart = this.tabStartCol;
    if (!backwards) this.moveTo(col < last ? row : row + 1 < this.rows.length ? row + 1 : row, col < last ? col + 1 : 0);
    else this.moveTo(col > 0 ? row : Math.max(0, row - 1), col > 0 ? col - 1 : row > 0 ? last : 0);
    this.tabStartCol = tabStart;
  }

  /** Enter from the editor: commit and go down a row, to the column a run of Tabs started from; a new row past the last. */
  enterFromEditor(backwards: boolean) {
    const { row, col } = this.active;
    const target = this.tabStartCol ?? col;
    if (!backwards && row + 1 >= this.rows.length) {
      this.commitEdit();
      this.addRows(1);
    }
    this.moveTo(backwards ? Math.max(0, row - 1) : row + 1, target);
  }

  /** Writes a block of text cells starting at (row, col), adding rows as needed; returns the rows written. */
  setBlock(row: number, col: number, block: string[][], mapping?: ColumnMapping<DetailField>): number {
    this.commitDraft();
    if (block.length === 0) return 0;
    this.record();
    const rows = this.rows.slice();
    while (rows.length < row + block.length) rows.push(this.makeRow({}, false));
    block.forEach((line, i) => {
      const target = rows[row + i];
      const values = { ...target.values };
      line.forEach((text, j) => {
        const field = mapping ? mapping.fields[j] : DETAIL_FIELDS[col + j];
        if (field) values[field] = text.trim();
      });
      // A header's unit ("Weight (kg)") for rows that name none.
      for (const { field, value } of mapping?.defaults ?? []) if (!values[field]?.trim()) values[field] = value;
      rows[row + i] = { key: target.key, values, errors: validateRow(values) };
    });
    this.rows = rows;
    this.emit();
    return block.length;
  }

  /** Replaces every row (an import, a discarded draft: undoable; a draft restored on load: not). */
  replaceRows(values: RowValues[], { undoable = true }: { undoable?: boolean } = {}) {
    if (undoable) this.record();
    this.anchor = null;
    this.rows = (values.length ? values : [{}]).map((v) => this.makeRow(v));
    this.active = { row: 0, col: 0 };
    this.editing = null;
    this.emit();
  }

  /** Appends rows after the last non-blank one (trailing blank rows are reused). */
  appendRows(values: RowValues[]) {
    this.record();
    let end = this.rows.length;
    while (end > 0 && isBlankRow(this.rows[end - 1].values)) end--;
    this.rows = [...this.rows.slice(0, end), ...values.map((v) => this.makeRow(v))];
    if (this.rows.length === 0) this.rows = [this.makeRow({})];
    this.emit();
  }

  addRows(count = 1) {
    this.commitDraft();
    this.rows = [...this.rows, ...Array.from({ length: count }, () => this.makeRow({}, false))];
    this.active = { row: this.rows.length - count, col: 0 };
    this.anchor = null;
    this.emit();
  }

  duplicateRow(row: number) {
    this.commitDraft();
    const source = this.rows[row];
    if (!source) return;
    this.record();
    this.rows = [...this.rows.slice(0, row + 1), this.makeRow({ ...source.values }), ...this.rows.slice(row + 1)];
    this.active = { row: row + 1, col: this.active.col };
    this.editing = null;
    this.emit();
  }

  removeRow(row: number) {
    this.commitDraft();
    if (!this.rows[row]) return;
    this.record();
    this.anchor = null;
    this.rows = this.rows.filter((_, i) => i !== row);
    if (this.rows.length === 0) this.rows = [this.makeRow({})];
    this.active = { row: Math.min(row, this.rows.length - 1), col: this.active.col };
    this.editing = null;
    this.emit();
  }

  /** Errors from a whole-request validation (ours or the server's), by row index. */
  setErrors(byRow: Map<number, RowErrors>) {
    this.rows = this.rows.map((r, i) => {
      const extra = byRow.get(i);
      return extra ? { key: r.key, values: r.values, errors: { ...(r.errors ?? {}), ...extra } } : r;
    });
    this.emit();
  }

  revalidateAll() {
    this.rows = this.rows.map((r) => ({ key: r.key, values: r.values, errors: validateRow(r.values) }));
    this.emit();
  }

  moveTo(row: number, col: number) {
    this.commitDraft();
    const next = {
      row: Math.max(0, Math.min(row, this.rows.length - 1)),
      col: Math.max(0, Math.min(col, DETAIL_FIELDS.length - 1)),
    };
    this.tabStartCol = null;
    const hadRange = this.anchor !== null;
    this.anchor = null;
    if (next.row === this.active.row && next.col === this.active.col && !this.editing && !hadRange) return;
    this.active = next;
    this.editing = null;
    this.emit();
  }

  startEdit(initial?: string) {
    const row = this.rows[this.active.row];
    if (!row) return;
    const text = initial ?? row.values[DETAIL_FIELDS[this.active.col]] ?? '';
    this.anchor = null;
    this.editing = { initial: text, draft: text };
    this.emit();
  }

  updateDraft(text: string) {
    if (this.editing) this.editing.draft = text;
  }

  /** Writes the open editor's text to its cell (no notification: the caller emits). */
  private commitDraft() {
    const editing = this.editing;
    if (!editing) return;
    this.editing = null;
    const { row, col } = this.active;
    const current = this.rows[row];
    const field = DETAIL_FIELDS[col];
    if (!current || !field || (current.values[field] ?? '') === editing.draft) return;
    this.record();
    const values = { ...current.values, [field]: editing.draft };
    this.rows = this.rows.slice();
    this.rows[row] = { key: current.key, values, errors: validateRow(values) };
  }

  commitEdit() {
    if (!this.editing) return;
    this.commitDraft();
    this.emit();
  }

  cancelEdit() {
    if (!this.editing) return;
    this.editing = null;
    this.emit();
  }

  /** The first cell with an error, in reading order. */
  firstError(): Cell | null {
    for (let row = 0; row < this.rows.length; row++) {
      const errors = this.rows[row].errors;
      if (!errors) continue;
      const col = DETAIL_FIELDS.findIndex((f) => errors[f]);
      if (col >= 0) return { row, col };
    }
    return null;
  }

  summary() {
    let packages = 0;
    let weightLb = 0;
    let withoutWeight = 0;
    let rowsWithErrors = 0;
    for (const { values, errors } of this.rows) {
      if (errors) rowsWithErrors++;
      if (isBlankRow(values)) continue;
      packages++;
      const weight = Number(values.PackageWeight);
      const unit = (values.PackageWeightUnit || 'lb').toLowerCase();
      if (values.PackageWeight && Number.isFinite(weight) && LB_PER_UNIT[unit]) weightLb += weight * LB_PER_UNIT[unit];
      else withoutWeight++;
    }
    return { packages, weightLb: Math.round(weightLb * 1000) / 1000, withoutWeight, rowsWithErrors };
  }
}
