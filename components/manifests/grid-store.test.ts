import { describe, expect, it, vi } from 'vitest';
import { DETAIL_FIELDS, GridStore, isBlankRow, rowPayload, validateRow } from './grid-store';
import { CUSTOMS_CELLS } from '@/lib/schemas/customs-cells';

const col = (field: (typeof DETAIL_FIELDS)[number]) => DETAIL_FIELDS.indexOf(field);
const W = col('PackageWeight');

describe('row helpers', () => {
  it("DETAIL_FIELDS are the schema columns in order, then the declaration's", () => {
    expect(DETAIL_FIELDS[0]).toBe('TrackingNumber');
    expect(DETAIL_FIELDS).toHaveLength(22);
    expect(DETAIL_FIELDS.slice(14)).toEqual(['ToCountry', ...CUSTOMS_CELLS]);
  });

  it('turns the customs cells into the declaration, one item a row, and puts its errors on their cells', () => {
    const row = {
      TrackingNumber: 'T1',
      PackageWeightUnit: 'kg',
      CustomsHSCode: '6109.10',
      CustomsDescription: 'Cotton T-shirt',
      CustomsValue: '12.5',
      CustomsCurrency: 'eur',
      CustomsOriginCountry: 'PT',
      CustomsNetWeight: '0.2',
    };
    expect(rowPayload(row)).toEqual({
      TrackingNumber: 'T1',
      PackageWeightUnit: 'kg',
      Customs: {
        Currency: 'eur',
        Items: [
          {
            Description: 'Cotton T-shirt',
            Quantity: '1',
            Value: '12.5',
            HSCode: '6109.10',
            OriginCountry: 'PT',
            Weight: '0.2',
            WeightUnit: 'kg',
          },
        ],
      },
    });
    expect(validateRow(row)).toBeNull();
    expect(rowPayload({ TrackingNumber: 'T1' })).toEqual({ TrackingNumber: 'T1' });
    expect(
      validateRow({
        ...row,
        CustomsHSCode: '61AB',
        CustomsDescription: 'gift',
        CustomsValue: '1.234',
        CustomsOriginCountry: 'QQ',
        CustomsQuantity: '0',
      }),
    ).toEqual({
      CustomsHSCode: expect.any(String),
      CustomsDescription: expect.any(String),
      CustomsValue: expect.any(String),
      CustomsOriginCountry: expect.any(String),
      CustomsQuantity: expect.any(String),
    });
    expect(validateRow({ TrackingNumber: 'T1', CustomsValue: '5' })).toEqual({
      CustomsCurrency: expect.stringContaining('required'),
      CustomsDescription: expect.any(String),
    });
  });

  it('isBlankRow ignores whitespace', () => {
    expect(isBlankRow({})).toBe(true);
    expect(isBlankRow({ ToName: '  \t' })).toBe(true);
    expect(isBlankRow({ ToName: ' a ' })).toBe(false);
  });

  it('rowPayload keeps only trimmed, non-empty cells', () => {
    expect(rowPayload({ TrackingNumber: ' T1 ', ToName: '   ', PackageWeight: '2' })).toEqual({
      TrackingNumber: 'T1',
      PackageWeight: '2',
    });
    expect(rowPayload({})).toEqual({});
  });

  it('validateRow: null for blank and valid rows, the first message per field otherwise', () => {
    expect(validateRow({})).toBeNull();
    expect(validateRow({ TrackingNumber: 'T1', PackageWeight: '2' })).toBeNull();
    expect(validateRow({ PackageWeight: 'abc' })).toEqual({ PackageWeight: 'must be a number' });
  });
});

describe('GridStore', () => {
  it('starts with three blank rows, or the given ones, each with a unique key', () => {
    const store = new GridStore();
    expect(store.rows).toHaveLength(3);
    expect(store.rows.every((r) => isBlankRow(r.values) && r.errors === null)).toBe(true);
    expect(new Set(store.rows.map((r) => r.key)).size).toBe(3);
    expect(store.columnCount).toBe(DETAIL_FIELDS.length);
    expect(store.active).toEqual({ row: 0, col: 0 });
    const given = new GridStore([{ PackageWeight: 'x' }]);
    expect(given.values()).toEqual([{ PackageWeight: 'x' }]);
    expect(given.rows[0].errors).toEqual({ PackageWeight: 'must be a number' });
  });

  it('an empty initial grid has no rows until one is added', () => {
    const store = new GridStore([]);
    expect(store.rows).toEqual([]);
    expect(store.firstError()).toBeNull();
    expect(store.summary()).toEqual({ packages: 0, weightLb: 0, withoutWeight: 0, rowsWithErrors: 0 });
    store.setCell(0, 0, 'T1'); // no row: nothing happens
    expect(store.rows).toEqual([]);
    store.addRows(1);
    expect(store.rows).toHaveLength(1);
    expect(store.active).toEqual({ row: 0, col: 0 });
  });

  it('setCell replaces only that row object, validates it and notifies', () => {
    const store = new GridStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const [first, , third] = store.rows;
    store.setCell(1, W, 'abc');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.rows[0]).toBe(first);
    expect(store.rows[2]).toBe(third);
    expect(store.rows[1].values).toEqual({ PackageWeight: 'abc' });
    expect(store.rows[1].errors).toEqual({ PackageWeight: 'must be a number' });
    // The same value again, an unknown row or column: no change, no notification.
    const before = store.rows;
    store.setCell(1, W, 'abc');
    store.setCell(9, W, '1');
    store.setCell(1, 99, '1');
    expect(store.rows).toBe(before);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('unsubscribe stops notifications', () => {
    const store = new GridStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    unsubscribe();
    store.addRows(1);
    expect(listener).not.toHaveBeenCalled();
  });

  it('setBlock pastes a block, trimming, and adds rows past the end', () => {
    const store = new GridStore();
    const written = store.setBlock(2, W, [
      [' 2 ', 'kg'],
      ['3', 'lb'],
      ['abc', 'oz'],
    ]);
    expect(written).toBe(3);
    expect(store.rows).toHaveLength(5);
    expect(store.values().slice(2)).toEqual([
      { PackageWeight: '2', PackageWeightUnit: 'kg' },
      { PackageWeight: '3', PackageWeightUnit: 'lb' },
      { PackageWeight: 'abc', PackageWeightUnit: 'oz' },
    ]);
    expect(store.rows[4].errors).toEqual({ PackageWeight: 'must be a number' });
    expect(new Set(store.rows.map((r) => r.key)).size).toBe(5);
  });

  it('setBlock drops columns past the last and maps columns by the given fields', () => {
    const store = new GridStore([{}]);
    store.setBlock(0, DETAIL_FIELDS.length - 1, [['US', 'beyond', 'more']]);
    expect(store.values()).toEqual([{ CustomsNetWeight: 'US' }]);
    store.setBlock(0, 0, [['T9', 'skip', '4']], { fields: ['TrackingNumber', null, 'PackageWeight'], defaults: [] });
    expect(store.values()).toEqual([{ CustomsNetWeight: 'US', TrackingNumber: 'T9', PackageWeight: '4' }]);
  });

  it('setBlock with a header mapping fills its defaults (the unit of a "Weight (kg)" column) where a row has none', () => {
    const store = new GridStore([{}]);
    const mapping = {
      fields: ['TrackingNumber' as const, 'PackageWeight' as const, 'PackageWeightUnit' as const],
      defaults: [{ field: 'PackageWeightUnit' as const, value: 'kg' }],
    };
    store.setBlock(
      0,
      0,
      [
        ['T1', '2', ''],
        ['T2', '3', 'lb'],
      ],
      mapping,
    );
    expect(store.values()).toEqual([
      { TrackingNumber: 'T1', PackageWeight: '2', PackageWeightUnit: 'kg' },
      { TrackingNumber: 'T2', PackageWeight: '3', PackageWeightUnit: 'lb' },
    ]);
  });

  it('setBlock of nothing changes nothing', () => {
    const store = new GridStore();
    const listener = vi.fn();
    store.subscribe(listener);
    expect(store.setBlock(0, 0, [])).toBe(0);
    expect(listener).not.toHaveBeenCalled();
  });

  it('setBlock commits an open editor first', () => {
    const store = new GridStore();
    store.startEdit('T1');
    store.updateDraft('T1X');
    store.setBlock(1, 0, [['T2']]);
    expect(store.values().slice(0, 2)).toEqual([{ TrackingNumber: 'T1X' }, { TrackingNumber: 'T2' }]);
    expect(store.editing).toBeNull();
  });

  it('holds 5,000 rows: paste, summary and first error', () => {
    const store = new GridStore();
    const block = Array.from({ length: 5000 }, (_, i) => [`T${i}`, i === 4321 ? 'x' : '1', 'lb']);
    expect(store.setBlock(0, 0, block)).toBe(5000);
    expect(store.rows).toHaveLength(5000);
    expect(store.summary()).toEqual({ packages: 5000, weightLb: 4999, withoutWeight: 1, rowsWithErrors: 1 });
    expect(store.firstError()).toEqual({ row: 4321, col: W });
    store.moveTo(10_000, 0);
    expect(store.active).toEqual({ row: 4999, col: 0 });
  });

  it('replaceRows resets rows, selection and editor; an empty list leaves one blank row', () => {
    const store = new GridStore();
    store.moveTo(2, 3);
    store.startEdit('x');
    store.replaceRows([{ TrackingNumber: 'A' }, { TrackingNumber: 'B' }]);
    expect(store.values()).toEqual([{ TrackingNumber: 'A' }, { TrackingNumber: 'B' }]);
    expect(store.active).toEqual({ row: 0, col: 0 });
    expect(store.editing).toBeNull();
    store.replaceRows([]);
    expect(store.values()).toEqual([{}]);
  });

  it('appendRows reuses trailing blank rows, keeps inner blank ones', () => {
    const store = new GridStore([{ TrackingNumber: 'A' }, {}, { TrackingNumber: 'B' }, {}, {}]);
    store.appendRows([{ TrackingNumber: 'C' }]);
    expect(store.values()).toEqual([{ TrackingNumber: 'A' }, {}, { TrackingNumber: 'B' }, { TrackingNumber: 'C' }]);
    const blank = new GridStore();
    blank.appendRows([]);
    expect(blank.values()).toEqual([{}]);
  });

  it('addRows appends blank rows and selects the first new one', () => {
    const store = new GridStore();
    store.addRows(2);
    expect(store.rows).toHaveLength(5);
    expect(store.active).toEqual({ row: 3, col: 0 });
  });

  it('duplicateRow inserts a copy below and selects it; an unknown row does nothing', () => {
    const store = new GridStore([{ TrackingNumber: 'A' }, { TrackingNumber: 'B' }]);
    store.moveTo(0, 2);
    store.duplicateRow(0);
    expect(store.values()).toEqual([{ TrackingNumber: 'A' }, { TrackingNumber: 'A' }, { TrackingNumber: 'B' }]);
    expect(store.rows[1].key).not.toBe(store.rows[0].key);
    expect(store.rows[1].values).not.toBe(store.rows[0].values);
    expect(store.active).toEqual({ row: 1, col: 2 });
    const before = store.rows;
    store.duplicateRow(7);
    expect(store.rows).toBe(before);
  });

  it('removeRow removes and keeps the selection in range; removing the last row leaves one blank row', () => {
    const store = new GridStore([{ TrackingNumber: 'A' }, { TrackingNumber: 'B' }]);
    store.moveTo(1, 4);
    store.removeRow(1);
    expect(store.values()).toEqual([{ TrackingNumber: 'A' }]);
    expect(store.active).toEqual({ row: 0, col: 4 });
    store.removeRow(0);
    expect(store.values()).toEqual([{}]);
    expect(store.active).toEqual({ row: 0, col: 4 });
    const before = store.rows;
    store.removeRow(5);
    expect(store.rows).toBe(before);
  });

  it('setErrors merges request-level errors by row; revalidateAll drops them again', () => {
    const store = new GridStore([{ TrackingNumber: 'A' }, { PackageWeight: 'x' }]);
    store.setErrors(
      new Map([
        [0, { TrackingNumber: 'duplicate tracking number' }],
        [1, { ToName: 'required' }],
      ]),
    );
    expect(store.rows[0].errors).toEqual({ TrackingNumber: 'duplicate tracking number' });
    expect(store.rows[1].errors).toEqual({ PackageWeight: 'must be a number', ToName: 'required' });
    expect(store.firstError()).toEqual({ row: 0, col: 0 });
    store.revalidateAll();
    expect(store.rows[0].errors).toBeNull();
    expect(store.rows[1].errors).toEqual({ PackageWeight: 'must be a number' });
    expect(store.firstError()).toEqual({ row: 1, col: W });
  });

  it('moveTo clamps to the grid and notifies only on a change', () => {
    const store = new GridStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.moveTo(-4, 99);
    expect(store.active).toEqual({ row: 0, col: DETAIL_FIELDS.length - 1 });
    expect(listener).toHaveBeenCalledTimes(1);
    store.moveTo(0, DETAIL_FIELDS.length - 1);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('the editor: start with the cell value or a typed character, commit on move, cancel with Escape', () => {
    const store = new GridStore([{ TrackingNumber: 'A' }, {}]);
    store.startEdit();
    expect(store.editing).toEqual({ initial: 'A', draft: 'A' });
    store.updateDraft('AB');
    store.moveTo(1, 0); // moving away commits
    expect(store.values()[0]).toEqual({ TrackingNumber: 'AB' });
    expect(store.editing).toBeNull();

    store.startEdit('7');
    store.updateDraft('7x');
    store.cancelEdit();
    expect(store.values()[1]).toEqual({});
    expect(store.editing).toBeNull();

    store.moveTo(1, W);
    store.startEdit('z');
    store.commitEdit();
    expect(store.values()[1]).toEqual({ PackageWeight: 'z' });
    expect(store.rows[1].errors).toEqual({ PackageWeight: 'must be a number' });

    // Without an open editor these do nothing and do not notify.
    const listener = vi.fn();
    store.subscribe(listener);
    store.commitEdit();
    store.cancelEdit();
    store.updateDraft('ignored');
    expect(listener).not.toHaveBeenCalled();
  });

  it('startEdit on an empty grid does nothing', () => {
    const store = new GridStore([]);
    store.startEdit('x');
    expect(store.editing).toBeNull();
  });

  it('summary converts kg and oz to lb, counts rows without a weight and rows with errors', () => {
    const store = new GridStore([
      { PackageWeight: '1', PackageWeightUnit: 'kg' },
      { PackageWeight: '16', PackageWeightUnit: 'oz' },
      { PackageWeight: '2' },
      { TrackingNumber: 'T4' },
      { PackageWeight: 'abc' },
      {},
    ]);
    expect(store.summary()).toEqual({ packages: 5, weightLb: 5.205, withoutWeight: 2, rowsWithErrors: 1 });
  });
});

describe('GridStore: spreadsheet editing', () => {
  const col = (field: string) => DETAIL_FIELDS.indexOf(field as (typeof DETAIL_FIELDS)[number]);
  const T = col('TrackingNumber');
  const W = col('PackageWeight');
  const U = col('PackageWeightUnit');

  it('undoes and redoes every kind of edit: typing, paste, fill, clear, import, row removal', () => {
    const store = new GridStore([{}, {}, {}]);
    expect(store.canUndo).toBe(false);
    store.moveTo(0, T);
    store.startEdit('A');
    store.updateDraft('A1');
    store.moveTo(1, T); // commits
    store.setBlock(1, T, [['B1', '2']]);
    store.moveTo(2, T);
    store.fillDown();
    store.removeRow(0);
    store.appendRows([{ TrackingNumber: 'C1' }]);
    const snapshots: unknown[] = [store.values()];
    while (store.canUndo) {
      store.undo();
      snapshots.push(store.values());
    }
    // Fill down from one cell copies only that column from the row above.
    expect(snapshots).toEqual([
      [{ TrackingNumber: 'B1', PackageWeight: '2' }, { TrackingNumber: 'B1' }, { TrackingNumber: 'C1' }],
      [{ TrackingNumber: 'B1', PackageWeight: '2' }, { TrackingNumber: 'B1' }],
      [{ TrackingNumber: 'A1' }, { TrackingNumber: 'B1', PackageWeight: '2' }, { TrackingNumber: 'B1' }],
      [{ TrackingNumber: 'A1' }, { TrackingNumber: 'B1', PackageWeight: '2' }, {}],
      [{ TrackingNumber: 'A1' }, {}, {}],
      [{}, {}, {}],
    ]);
    store.redo();
    store.redo();
    expect(store.values()).toEqual([{ TrackingNumber: 'A1' }, { TrackingNumber: 'B1', PackageWeight: '2' }, {}]);
    // A new edit forgets what was undone.
    store.setCell(2, T, 'Z');
    expect(store.canRedo).toBe(false);
  });

  it('Ctrl+Z while editing drops the editor first, then undoes', () => {
    const store = new GridStore([{ TrackingNumber: 'X' }]);
    store.setCell(0, T, 'Y');
    store.startEdit('Q');
    expect(store.undo()).toBe(true);
    expect(store.editing).toBeNull();
    expect(store.values()).toEqual([{ TrackingNumber: 'Y' }]);
    store.undo();
    expect(store.values()).toEqual([{ TrackingNumber: 'X' }]);
    expect(store.undo()).toBe(false);
  });

  it('selects a range with extendTo, copies it as TSV, clears it in one step', () => {
    const store = new GridStore([
      { TrackingNumber: 'T1', PackageWeight: '1', PackageWeightUnit: 'lb' },
      { TrackingNumber: 'T2', PackageWeight: 'has\ttab', PackageWeightUnit: 'say "hi"' },
      { TrackingNumber: 'T3' },
    ]);
    store.moveTo(0, W);
    store.extendTo(1, U);
    expect(store.range()).toEqual({ top: 0, bottom: 1, left: W, right: U });
    expect(store.selectedColumns(1)).toBe(`${W}-${U}`);
    expect(store.selectedColumns(2)).toBe('');
    expect(store.copyText()).toBe('1\tlb\r\n"has\ttab"\t"say ""hi"""\r\n');
    store.clearSelection();
    expect(store.values()).toEqual([{ TrackingNumber: 'T1' }, { TrackingNumber: 'T2' }, { TrackingNumber: 'T3' }]);
    store.undo();
    expect(store.values()[1]).toMatchObject({ PackageWeight: 'has\ttab' });
    // A plain move ends the range.
    store.moveTo(2, T);
    expect(store.range()).toEqual({ top: 2, bottom: 2, left: T, right: T });
  });

  it('fills down: the top row of a range into the rows below; one cell takes the one above', () => {
    const store = new GridStore([{ PackageWeightUnit: 'kg', PackageWeight: '2' }, { PackageWeight: '5' }, {}, {}]);
    store.moveTo(0, W);
    store.extendTo(2, U);
    store.fillDown();
    expect(store.values().slice(0, 3)).toEqual(Array(3).fill({ PackageWeightUnit: 'kg', PackageWeight: '2' }));
    store.moveTo(3, U);
    store.fillDown();
    expect(store.values()[3]).toEqual({ PackageWeightUnit: 'kg' });
    // Nothing above the first row: nothing happens.
    store.moveTo(0, T);
    store.fillDown();
    expect(store.values()[0]).toEqual({ PackageWeightUnit: 'kg', PackageWeight: '2' });
  });

  it('Enter after a run of Tabs from the editor returns to the column the run started from', () => {
    const store = new GridStore([{}, {}]);
    store.moveTo(0, T);
    store.startEdit('a');
    store.tabFromEditor(false);
    store.startEdit('1');
    store.tabFromEditor(false);
    store.startEdit('kg');
    store.enterFromEditor(false);
    expect(store.active).toEqual({ row: 1, col: T });
    expect(store.values()[0]).toEqual({ TrackingNumber: 'a', PackageWeight: '1', PackageWeightUnit: 'kg' });
    // Enter from the last row adds one; a plain move forgets the run.
    store.startEdit('b');
    store.tabFromEditor(false);
    store.moveTo(1, U);
    store.startEdit('lb');
    store.enterFromEditor(false);
    expect(store.rows).toHaveLength(3);
    expect(store.active).toEqual({ row: 2, col: U });
  });
});
