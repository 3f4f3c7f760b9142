// Text as the documents draw it: safe for any input, shortened with an ellipsis by measured width.

/** Anything the replaces below would change: control characters, surrogates, white space other than single inner spaces. */
const NEEDS_CLEANING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]|[^\S ]|\s\s|^\s|\s$/;

export function cleanText(value: string | undefined | null): string {
  if (!value) return '';
  if (!NEEDS_CLEANING.test(value)) return value; // most text: nothing to replace (saves three replaces a cell)
  return value
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface Measure {
  (text: string): number;
}

/** The longest prefix that fits `maxWidth` with an ellipsis; binary search, so 10,000 characters cost ~14 measurements. */
export function fitText(text: string, maxWidth: number, measure: Measure): string {
  if (measure(text) <= maxWidth) return text;
  const chars = Array.from(text);
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(`${chars.slice(0, mid).join('').trimEnd()}…`) <= maxWidth) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? (measure('…') <= maxWidth ? '…' : '') : `${chars.slice(0, low).join('').trimEnd()}…`;
}

/** The size at which text `width` wide at `size` fits `maxWidth`, not below `minSize`; `size` when it fits or has no minimum. */
export function shrinkToFit(width: number, size: number, maxWidth: number, minSize: number | undefined): number {
  if (minSize === undefined || !(width > maxWidth) || minSize >= size) return size;
  return Math.max(minSize, Math.floor(((size * maxWidth) / width) * 10) / 10);
}

/** `12345678901` → `123-45678901`; anything else as it is. */
export function formatAwb(awb: string | undefined): string {
  if (!awb) return '';
  const digits = awb.replace(/\D/g, '');
  return digits.length === 11 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : cleanText(awb);
}

/** The AWB as the API returns it (11 digits, no hyphen), for barcodes: a scanner reads what the API says. */
export function awbBarcodeValue(awb: string | undefined): string {
  if (!awb) return '';
  const digits = awb.replace(/\D/g, '');
  return digits.length === 11 ? digits : cleanText(awb);
}

const LB_PER_KG = 2.2046226218;

export function weightInLb(weight: number | undefined, unit: string | undefined): number | undefined {
  if (weight === undefined || !Number.isFinite(weight)) return undefined;
  switch ((unit ?? 'lb').toLowerCase()) {
    case 'kg':
      return weight * LB_PER_KG;
    case 'oz':
      return weight / 16;
    default:
      return weight;
  }
}

export function lbToKg(lb: number): number {
  return lb / LB_PER_KG;
}

/** `1234.5` → `1,234.5` (at most `decimals` places, no trailing zeros). Intl's toLocaleString cost 0.5 ms a call. */
export function formatNumber(value: number | undefined, decimals = 2): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  if (Number.isInteger(value) && value > -1000 && value < 1000) return String(value === 0 ? 0 : value); // no grouping, no decimals
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole = '0', fraction = ''] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const trimmed = fraction.replace(/0+$/, '');
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${grouped}${trimmed ? `.${trimmed}` : ''}`;
}

/** The dimensional divisor (in³ per lb) billable weight is computed with, as the rate cards' default. */
export const DIM_DIVISOR = 139;

export function billableLb(pkg: {
  weight?: number;
  weightUnit?: string;
  length?: number;
  width?: number;
  height?: number;
}): number {
  const actual = weightInLb(pkg.weight, pkg.weightUnit) ?? 0;
  const { length, width, height } = pkg;
  const dim = length && width && height ? (length * width * height) / DIM_DIVISOR : 0;
  return Math.max(actual, Number.isFinite(dim) ? dim : 0);
}

export function fileNamePart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'document';
}

/** An invoice's number as it is printed and named: INV-000042. */
export function invoiceNumberText(number: number): string {
  return `INV-${String(number).padStart(6, '0')}`;
}
