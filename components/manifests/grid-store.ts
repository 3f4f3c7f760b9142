import type { ColumnMapping } from '@/lib/portal-queries/column-names';
import { ZContainerDetail } from '@/lib/schemas/container-manifest';

// The package grid's state lives outside React: rows are immutable objects in an array, and each
// visible row subscribes to its own object (useSyncExternalStore), so a keystroke re-renders one
// row, not five thousand.

export type DetailField = keyof typeof ZContainerDetail.shape;
/** The grid's columns, in the schema's order. */
export const DETAIL_FIELDS = Object.keys(ZContainerDetail.shape) as DetailField[];

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

const LB_PER_UNIT: Record<string, number> = { lb: 1, kg: 2.20462, oz: 1 / 16 };

export function isBlankRow(values: RowValues): boolean {
  return DETAIL_FIELDS.every((f) => !values[f]?.trim());
}

/** The row as the API receives it: only the cells that hold something. */
export function rowPayload(values: RowValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of DETAIL_FIELDS) {
    const value = values[field]?.trim();
    if (value) out[field] = value;
  }
  return out;
}

/** Validates one row with the API's own ZContainerDetail schema. */
export function validateRow(values: RowValues): RowErrors | null {
  if (isBlankRow(values)) return null;
  const result = ZContainerDetail.safeParse(rowPayload(values));
  if (result.success) return null;
  const errors: RowErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as DetailField | undefined;
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
    const values = { ...current.values, [field]: value };
    this.rows = this.rows.slice();
    this.rows[row] = { key: current.key, values, errors: validateRow(values) };
    this.emit();
  }

  /** Writes a block of text cells starting at (row, col), adding rows as needed; returns the rows written. */
  setBlock(row: number, col: number, block: string[][], mapping?: ColumnMapping<DetailField>): number {
    this.commitDraft();
    if (block.length === 0) return 0;
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

  /** Replaces every row (an import into an empty grid, or a restored draft). */
  replaceRows(values: RowValues[]) {
    this.rows = (values.length ? values : [{}]).map((v) => this.makeRow(v));
    this.active = { row: 0, col: 0 };
    this.editing = null;
    this.emit();
  }

  /** Appends rows after the last non-blank one (trailing blank rows are reused). */
  appendRows(values: RowValues[]) {
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
    this.emit();
  }

  duplicateRow(row: number) {
    this.commitDraft();
    const source = this.rows[row];
    if (!source) return;
    this.rows = [...this.rows.slice(0, row + 1), this.makeRow({ ...source.values }), ...this.rows.slice(row + 1)];
    this.active = { row: row + 1, col: this.active.col };
    this.editing = null;
    this.emit();
  }

  removeRow(row: number) {
    this.commitDraft();
    if (!this.rows[row]) return;
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
    if (next.row === this.active.row && next.col === this.active.col && !this.editing) return;
    this.active = next;
    this.editing = null;
    this.emit();
  }

  startEdit(initial?: string) {
    const row = this.rows[this.active.row];
    if (!row) return;
    const text = initial ?? row.values[DETAIL_FIELDS[this.active.col]] ?? '';
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
