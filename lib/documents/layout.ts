import { awbBarcodeValue, cleanText, formatAwb, formatNumber, weightInLb } from './text';
import type { DocumentLabel, DocumentManifest } from './types';

// A 4×6 in label or tag as a list of elements in points (72 per inch, from the top-left). The PDF,
// ZPL and PNG renderers draw the same list, so the three formats cannot drift apart.

export const LABEL_WIDTH = 4 * 72;
export const LABEL_HEIGHT = 6 * 72;

export type Element =
  | {
      kind: 'text';
      x: number;
      y: number;
      size: number;
      minSize?: number;
      bold?: boolean;
      maxWidth: number;
      align?: 'left' | 'center' | 'right';
      value: string;
    }
  | { kind: 'barcode'; x: number; y: number; maxWidth: number; height: number; value: string }
  | { kind: 'rule'; x: number; y: number; width: number; thickness: number }
  | { kind: 'stamp'; value: string };

const M = 12; // margin
const W = LABEL_WIDTH - 2 * M;

/** minSize: a value that does not fit is drawn smaller, down to that size, before it is shortened (a postal code is not cut). */
function textEl(
  value: string | undefined,
  x: number,
  y: number,
  size: number,
  maxWidth: number,
  options: { bold?: boolean; align?: 'left' | 'center' | 'right'; minSize?: number } = {},
): Element[] {
  const clean = cleanText(value);
  return clean ? [{ kind: 'text', x, y, size, maxWidth, value: clean, ...options }] : [];
}

function rule(y: number, thickness = 1.5): Element {
  return { kind: 'rule', x: M, y, width: W, thickness };
}

/** The package label: carrier and service, from, to, postal code large, sort code, tracking barcode, ManifestID. */
export function packageLabelLayout(label: DocumentLabel): Element[] {
  const { pkg, shipper } = label;
  const els: Element[] = [];
  els.push(...textEl(label.carrier, M, M + 16, 16, W * 0.45, { bold: true, minSize: 10 }));
  els.push(
    ...textEl(pkg.serviceName?.toUpperCase(), LABEL_WIDTH - M, M + 16, 15, W * 0.55, { bold: true, align: 'right', minSize: 9 }),
  );
  els.push(rule(M + 24));
  let y = M + 36;
  els.push(...textEl('FROM', M, y, 6.5, 40, { bold: true }));
  const from = [
    shipper.company,
    shipper.address1,
    [shipper.city, shipper.state, shipper.postalCode].filter(Boolean).join(' '),
    shipper.country,
  ];
  for (const value of from) {
    if (!cleanText(value)) continue;
    els.push(...textEl(value, M + 40, y, 8, W - 40));
    y += 10;
  }
  y = Math.max(y, M + 70);
  els.push(rule(y - 4, 0.75));
  y += 10;
  els.push(...textEl('SHIP TO', M, y, 6.5, 40, { bold: true }));
  const city = [pkg.toCity, pkg.toState, pkg.toPostalCode].filter(Boolean).join(' ');
  const to = [pkg.toName, pkg.toAddress1, pkg.toAddress2, city, pkg.toCountry].filter((v) => cleanText(v));
  if (to.length === 0 || (to.length === 1 && !pkg.toName && !pkg.toAddress1)) {
    els.push(...textEl('Recipient not given', M + 40, y + 2, 9, W - 40));
    y += 14;
  } else {
    to.forEach((value, i) => {
      els.push(...textEl(value, M + 40, y + (i === 0 ? 2 : 0), i === 0 ? 12 : 10, W - 40, { bold: i === 0 }));
      y += i === 0 ? 15 : 12;
    });
  }
  y = Math.max(y, M + 160);
  els.push(rule(y - 4));
  // Destination postal code large, sort code in its own box beside it.
  els.push(...textEl(pkg.toPostalCode || '—', M, y + 44, 44, W * 0.62, { bold: true, minSize: 18 }));
  els.push(...textEl('SORT', LABEL_WIDTH - M, y + 12, 7, 60, { bold: true, align: 'right' }));
  els.push(...textEl(pkg.sortCode || '—', LABEL_WIDTH - M, y + 42, 26, W * 0.36, { bold: true, align: 'right', minSize: 12 }));
  els.push(...textEl(pkg.toTerminal ? `Terminal ${pkg.toTerminal}` : undefined, M, y + 60, 9, W));
  y += 70;
  els.push(rule(y));
  // The sort barcode is ours, never the shipper's tracking number (another shipper may have sent the same one); a
  // cancelled package's label has none, so that nothing scans it. The tracking number stays printed beside it.
  const sortBarcode = label.state === 'cancelled' ? undefined : pkg.carrierBarcode;
  if (sortBarcode) els.push({ kind: 'barcode', x: M + 4, y: y + 10, maxWidth: W - 8, height: 70, value: sortBarcode });
  els.push(
    ...textEl(pkg.carrierBarcode ?? '', LABEL_WIDTH / 2, y + (sortBarcode ? 96 : 50), 13, W, { bold: true, align: 'center' }),
  );
  els.push(
    ...textEl(
      pkg.trackingNumber ? `Tracking ${pkg.trackingNumber}` : 'No tracking number',
      LABEL_WIDTH / 2,
      y + (sortBarcode ? 114 : 70),
      10,
      W,
      { align: 'center' },
    ),
  );
  y += 124;
  els.push(rule(y));
  const weight = pkg.weight !== undefined ? `${formatNumber(pkg.weight)} ${cleanText(pkg.weightUnit) || 'lb'}` : '';
  const dims =
    pkg.length && pkg.width && pkg.height
      ? `${formatNumber(pkg.length)}×${formatNumber(pkg.width)}×${formatNumber(pkg.height)} in`
      : '';
  els.push(...textEl([weight, dims].filter(Boolean).join('   '), M, y + 14, 10, W, { bold: true }));
  els.push(...textEl(`Manifest ${label.manifestId}`, M, y + 28, 9, W * 0.7));
  els.push(...textEl(label.manifestDate, LABEL_WIDTH - M, y + 28, 9, W * 0.3, { align: 'right' }));
  if (label.state === 'cancelled') els.push({ kind: 'stamp', value: 'CANCELLED' });
  return els;
}

/** The container tag: ContainerID and AWB barcodes, destination terminal large, pieces, weight, service, ManifestID, date. */
export function containerTagLayout(manifest: DocumentManifest): Element[] {
  const els: Element[] = [];
  els.push(...textEl(manifest.carrier, M, M + 16, 16, W * 0.45, { bold: true, minSize: 10 }));
  els.push(
    ...textEl(manifest.serviceName?.toUpperCase(), LABEL_WIDTH - M, M + 16, 15, W * 0.55, {
      bold: true,
      align: 'right',
      minSize: 9,
    }),
  );
  els.push(rule(M + 24));
  let y = M + 38;
  els.push(...textEl('TO TERMINAL', M, y, 7, W, { bold: true }));
  els.push(...textEl(manifest.toTerminal || '—', M, y + 50, 54, W * 0.6, { bold: true, minSize: 20 }));
  els.push(...textEl('FROM', LABEL_WIDTH - M, y, 7, 80, { bold: true, align: 'right' }));
  els.push(
    ...textEl(manifest.fromTerminal || '—', LABEL_WIDTH - M, y + 24, 20, W * 0.38, { bold: true, align: 'right', minSize: 10 }),
  );
  y += 64;
  els.push(rule(y));
  els.push(...textEl('CONTAINER', M, y + 12, 7, W, { bold: true }));
  const scannable = manifest.state !== 'cancelled';
  if (manifest.containerId) {
    if (scannable) els.push({ kind: 'barcode', x: M + 4, y: y + 18, maxWidth: W - 8, height: 70, value: manifest.containerId });
    els.push(...textEl(manifest.containerId, LABEL_WIDTH / 2, y + 106, 14, W, { bold: true, align: 'center' }));
  }
  y += 114;
  els.push(rule(y));
  const awb = formatAwb(manifest.awb);
  els.push(...textEl('AWB', M, y + 12, 7, W, { bold: true }));
  if (awb) {
    // The barcode holds the AWB as the API returns it (11 digits); the text keeps the hyphen people read.
    if (scannable)
      els.push({ kind: 'barcode', x: M + 4, y: y + 18, maxWidth: W - 8, height: 56, value: awbBarcodeValue(manifest.awb) });
    els.push(...textEl(awb, LABEL_WIDTH / 2, y + 92, 14, W, { bold: true, align: 'center' }));
  } else {
    els.push(...textEl('No AWB', LABEL_WIDTH / 2, y + 50, 12, W, { align: 'center' }));
  }
  y += 100;
  els.push(rule(y));
  let lb = 0;
  for (const pkg of manifest.packages) lb += weightInLb(pkg.weight, pkg.weightUnit) ?? 0;
  // The declared container weight is the container's as sent; pieces are those handed over (no cancelled package).
  const weight = manifest.containerWeightLb ?? lb;
  els.push(...textEl('PIECES', M, y + 12, 7, W / 2, { bold: true }));
  els.push(...textEl(String(manifest.packages.length), M, y + 40, 26, W / 2 - 6, { bold: true }));
  els.push(...textEl('WEIGHT', M + W / 2, y + 12, 7, W / 2, { bold: true }));
  els.push(...textEl(`${formatNumber(weight, 1)} lb`, M + W / 2, y + 40, 22, W / 2, { bold: true }));
  y += 50;
  els.push(rule(y, 0.75));
  // A ManifestID is MAN- and 16 characters: a line of its own, the date under it (the tag has the room).
  els.push(...textEl(`Manifest ${manifest.manifestId}`, M, y + 16, 12, W, { bold: true, minSize: 8 }));
  els.push(...textEl(`Manifest date ${manifest.manifestDate}`, M, y + 34, 10, W, { bold: true }));
  if (manifest.state === 'cancelled') els.push({ kind: 'stamp', value: 'CANCELLED' });
  return els;
}
