// The customs declaration as spreadsheet cells (one declared item per package row), to the `Customs` object the API
// reads and its paths back to cells. Client-safe.

export const CUSTOMS_CELLS = [
  'CustomsHSCode',
  'CustomsDescription',
  'CustomsValue',
  'CustomsCurrency',
  'CustomsOriginCountry',
  'CustomsQuantity',
  'CustomsNetWeight',
] as const;
export type CustomsCell = (typeof CUSTOMS_CELLS)[number];

const ITEM_FIELD: Record<string, CustomsCell> = {
  HSCode: 'CustomsHSCode',
  Description: 'CustomsDescription',
  Value: 'CustomsValue',
  OriginCountry: 'CustomsOriginCountry',
  Quantity: 'CustomsQuantity',
  Weight: 'CustomsNetWeight',
  WeightUnit: 'CustomsNetWeight',
};

/**
 * The declaration the cells make, or undefined when all are blank. A row names no quantity as often as not: one
 * piece is meant. The net weight is in the row's package weight unit (pounds when it gives none).
 */
export function customsFromCells(
  cells: Partial<Record<CustomsCell, string>>,
  weightUnit: string | undefined,
): Record<string, unknown> | undefined {
  const get = (cell: CustomsCell) => cells[cell]?.trim() || undefined;
  if (CUSTOMS_CELLS.every((cell) => !get(cell))) return undefined;
  const weight = get('CustomsNetWeight');
  const item = {
    Description: get('CustomsDescription'),
    Quantity: get('CustomsQuantity') ?? '1',
    Value: get('CustomsValue'),
    HSCode: get('CustomsHSCode'),
    OriginCountry: get('CustomsOriginCountry'),
    ...(weight ? { Weight: weight, WeightUnit: weightUnit?.trim() || 'lb' } : {}),
  };
  const currency = get('CustomsCurrency');
  return {
    ...(currency ? { Currency: currency } : {}),
    Items: [Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined))],
  };
}

/** The cell a path inside a package's `Customs` names (`['Items', 0, 'HSCode']`), or undefined. */
export function customsCellOf(path: readonly PropertyKey[]): CustomsCell | undefined {
  if (path[0] === 'Currency') return 'CustomsCurrency';
  if (path[0] === 'Items') return (typeof path[2] === 'string' && ITEM_FIELD[path[2]]) || 'CustomsDescription';
  return path.length > 0 ? 'CustomsDescription' : undefined;
}

/** The cell for a path in the API's details after the package's own (`Customs.Items[0].HSCode`), or undefined. */
export function customsCellOfPath(path: string): CustomsCell | undefined {
  if (path === 'Customs.Currency') return 'CustomsCurrency';
  const item = /^Customs\.Items(?:\[\d+\](?:\.(\w+))?)?$/.exec(path);
  if (item) return (item[1] && ITEM_FIELD[item[1]]) || 'CustomsDescription';
  return path === 'Customs' || path.startsWith('Customs.') ? 'CustomsDescription' : undefined;
}
