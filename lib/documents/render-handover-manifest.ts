import { rgb } from 'pdf-lib';
import { barcode, box, cancelledStamp, GREY, INCH, LIGHT, line, newCanvas, text, type Canvas, type Page } from './pdf';
import { awbBarcodeValue, billableLb, cleanText, formatAwb, formatNumber, lbToKg, weightInLb } from './text';
import type { DocumentParty, DocumentManifest, DocumentPackage, DocumentPickup, PaperSize } from './types';

const SIZES: Record<PaperSize, [number, number]> = { letter: [8.5 * INCH, 11 * INCH], a4: [595.28, 841.89] };
const MARGIN = 36;
const ROW = 11.5;
const HEADER_BOTTOM = 74; // the running header on every page ends here
const FOOTER_TOP = 30; // from the bottom
const FIRST_TABLE_TOP = 318; // below the blocks of page 1
const CLOSING_HEIGHT = 245; // totals (with the charges) and tender block
const PICKUP_HEADING = 30; // the driver block's pickup heading
const PICKUP_LINES = 37; // and each pickup's three lines

export interface HandoverOptions {
  paper?: PaperSize;
}

interface Plan {
  /** Package index ranges per page. */
  pages: { from: number; to: number; tableTop: number }[];
  closingTop: number;
}

/**
 * The handover manifest a driver signs: carrier and shipper, ManifestID and AWB as Code 128,
 * one line per package, totals, tender block; "page n of N" and the ManifestID on every page.
 * A pure function of its input.
 */
export async function renderHandoverManifest(manifest: DocumentManifest, options: HandoverOptions = {}): Promise<Uint8Array> {
  const [width, height] = SIZES[options.paper ?? 'letter'];
  const canvas = await newCanvas(`Handover manifest ${manifest.manifestId}`, manifest.generatedAt);
  const pickups = manifest.pickups ?? [];
  const plan = paginate(
    manifest.packages.length,
    height,
    pickups.length > 0 ? PICKUP_HEADING + PICKUP_LINES * pickups.length : 0,
  );
  const total = plan.pages.length;
  const totals = sumUp(manifest.packages);
  plan.pages.forEach((slice, index) => {
    const page = canvas.addPage([width, height]);
    runningHeader(page, canvas, manifest, index + 1, total);
    if (index === 0) firstPageBlocks(page, canvas, manifest);
    if (manifest.packages.length === 0 && index === 0) {
      text(page, 'This manifest has no packages.', { x: MARGIN, y: slice.tableTop + 24, size: 14, font: canvas.bold });
    } else if (slice.to > slice.from) {
      table(page, canvas, manifest.packages, slice);
    }
    if (index === total - 1) closing(page, canvas, manifest, totals, plan.closingTop);
    footer(page, canvas, manifest, index + 1, total);
    if (manifest.state === 'cancelled') cancelledStamp(page, canvas);
  });
  return canvas.save();
}

/** Which packages go on which page, and where the closing block starts on the last one. */
function paginate(count: number, pageHeight: number, pickupHeight: number): Plan {
  const bottom = pageHeight - FOOTER_TOP - 8;
  const rowsFrom = (top: number) => Math.max(0, Math.floor((bottom - top - ROW) / ROW)); // one ROW for the column heads
  const pages: Plan['pages'] = [];
  let from = 0;
  let top = FIRST_TABLE_TOP;
  const emptyHeight = count === 0 ? 40 : 0;
  do {
    const to = Math.min(count, from + rowsFrom(top));
    pages.push({ from, to, tableTop: top });
    from = to;
    top = HEADER_BOTTOM + 6;
  } while (from < count);
  const last = pages[pages.length - 1];
  const lastRows = last ? last.to - last.from : 0;
  let closingTop = (last?.tableTop ?? FIRST_TABLE_TOP) + (lastRows > 0 ? ROW * (lastRows + 1) : 0) + emptyHeight + 14;
  if (closingTop + CLOSING_HEIGHT + pickupHeight > bottom) {
    pages.push({ from: count, to: count, tableTop: HEADER_BOTTOM + 6 });
    closingTop = HEADER_BOTTOM + 14;
  }
  return { pages, closingTop };
}

interface Totals {
  count: number;
  weightLb: number;
  billableLb: number;
  unknownWeights: number;
  /** The priced packages' charges summed in cents (exact), how many were priced, and how many not. */
  chargeCents: bigint;
  currency: string;
  priced: number;
  unpriced: number;
}

function sumUp(packages: DocumentPackage[]): Totals {
  let weightLb = 0;
  let billable = 0;
  let unknownWeights = 0;
  for (const pkg of packages) {
    const lb = weightInLb(pkg.weight, pkg.weightUnit);
    if (lb === undefined) unknownWeights += 1;
    else weightLb += lb;
    billable += billableLb(pkg);
  }
  let chargeCents = 0n;
  let priced = 0;
  let currency = 'USD';
  for (const pkg of packages) {
    const amount = pkg.charge?.status === 'priced' ? pkg.charge.amount : undefined;
    if (amount === undefined || !/^\d+\.\d{2}$/.test(amount)) continue;
    chargeCents += BigInt(amount.replace('.', ''));
    currency = pkg.charge?.currency ?? currency;
    priced++;
  }
  return {
    count: packages.length,
    weightLb,
    billableLb: billable,
    unknownWeights,
    chargeCents,
    currency,
    priced,
    unpriced: packages.length - priced,
  };
}

function runningHeader(page: Page, canvas: Canvas, manifest: DocumentManifest, number: number, total: number): void {
  const right = page.getWidth() - MARGIN;
  const kind = manifest.kind === 'container' ? 'Container' : 'Daily';
  text(page, `HANDOVER MANIFEST · ${kind.toUpperCase()}`, {
    x: MARGIN,
    y: MARGIN + 10,
    size: 15,
    font: canvas.bold,
    maxWidth: right - MARGIN - 200,
  });
  text(page, cleanText(manifest.carrier), { x: MARGIN, y: MARGIN + 26, size: 10, font: canvas.regular, maxWidth: 220 });
  text(page, manifest.manifestId, { x: right, y: MARGIN + 10, size: 13, font: canvas.bold, align: 'right', maxWidth: 200 });
  text(page, `Page ${number} of ${total}`, { x: right, y: MARGIN + 26, size: 10, font: canvas.bold, align: 'right' });
  const state = manifest.state === 'open' ? '' : manifest.state.toUpperCase();
  if (state) text(page, state, { x: page.getWidth() / 2 + 40, y: MARGIN + 26, size: 10, font: canvas.bold, align: 'center' });
  line(page, MARGIN, HEADER_BOTTOM - 4, right, HEADER_BOTTOM - 4, 1.5);
}

function footer(page: Page, canvas: Canvas, manifest: DocumentManifest, number: number, total: number): void {
  const y = page.getHeight() - FOOTER_TOP + 12;
  const right = page.getWidth() - MARGIN;
  line(page, MARGIN, y - 11, right, y - 11, 0.5, GREY);
  text(
    page,
    `${manifest.manifestId} · ${manifest.manifestDate} · generated ${manifest.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    {
      x: MARGIN,
      y,
      size: 8,
      font: canvas.regular,
      color: GREY,
      maxWidth: right - MARGIN - 90,
    },
  );
  text(page, `page ${number} of ${total}`, { x: right, y, size: 8, font: canvas.regular, align: 'right', color: GREY });
}

function firstPageBlocks(page: Page, canvas: Canvas, manifest: DocumentManifest): void {
  const right = page.getWidth() - MARGIN;
  const column = (right - MARGIN - 18) / 2;
  const col2 = MARGIN + column + 18;
  let y = HEADER_BOTTOM + 12;
  // Barcodes: ManifestID and AWB, each with its text.
  // A cancelled manifest's paper has no barcodes: nothing on it scans (its text still says what it was).
  const scannable = manifest.state !== 'cancelled';
  if (
    !scannable ||
    barcode(page, canvas, manifest.manifestId, {
      x: MARGIN,
      y,
      maxWidth: column,
      height: 44,
      caption: `ManifestID ${manifest.manifestId}`,
      captionSize: 10,
      minModule: 1,
    }) === 0
  ) {
    text(page, `ManifestID ${manifest.manifestId}`, { x: MARGIN, y: y + 24, size: 12, font: canvas.bold, maxWidth: column });
  }
  const awb = formatAwb(manifest.awb);
  // The barcode holds the AWB as the API returns it (11 digits); the caption keeps the hyphen people read.
  if (
    awb &&
    (!scannable ||
      barcode(page, canvas, awbBarcodeValue(manifest.awb), {
        x: col2,
        y,
        maxWidth: column,
        height: 44,
        caption: `AWB ${awb}`,
        captionSize: 10,
        minModule: 1,
      }) === 0)
  ) {
    text(page, `AWB ${awb}`, { x: col2, y: y + 24, size: 12, font: canvas.bold, maxWidth: column });
  }
  if (!awb) text(page, 'No AWB', { x: col2, y: y + 24, size: 11, font: canvas.regular, color: GREY });
  y += 74;
  const label = (title: string, x: number) =>
    text(page, title.toUpperCase(), { x, y, size: 7.5, font: canvas.bold, color: GREY });
  label('Carrier', MARGIN);
  label('Shipper', col2);
  const carrierLines = [
    manifest.carrier,
    manifest.fromTerminal || manifest.toTerminal
      ? `Terminals: ${manifest.fromTerminal || '—'} → ${manifest.toTerminal || '—'}`
      : '',
  ];
  const s = manifest.shipper;
  const place = (p: DocumentParty) => [p.city, [p.state, p.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const senders = manifest.senders ?? [];
  // Packages from several senders: each named (the block holds six lines: five, or four and a count), not the first
  // one's address alone; each package's label names its own.
  const named = senders.length > 5 ? 4 : 5;
  const shipperLines =
    senders.length > 1
      ? [
          `${senders.length} senders:`,
          ...senders.slice(0, named).map((p) => [p.company ?? p.name, place(p)].filter(Boolean).join(' — ')),
          ...(senders.length > named ? [`and ${senders.length - named} more, each on its packages' labels`] : []),
        ]
      : [s.company, s.name, s.address1, s.address2, place(s), s.country, s.phone];
  writeLines(page, canvas, carrierLines, MARGIN, y + 12, column);
  writeLines(page, canvas, shipperLines, col2, y + 12, column);
  y += 92;
  box(page, MARGIN, y - 10, right - MARGIN, 56, { fill: LIGHT });
  const facts: [string, string | undefined][] = [
    ['Manifest date', manifest.manifestDate],
    ['Service', manifest.serviceName],
    ['From terminal', manifest.fromTerminal],
    ['To terminal', manifest.toTerminal],
    ['Container', manifest.containerId],
    [
      'Container size (in)',
      manifest.containerDimensions
        ? `${formatNumber(manifest.containerDimensions.length)} × ${formatNumber(manifest.containerDimensions.width)} × ${formatNumber(manifest.containerDimensions.height)}`
        : undefined,
    ],
    ['Declared weight', manifest.containerWeightLb !== undefined ? `${formatNumber(manifest.containerWeightLb)} lb` : undefined],
    ['Description', manifest.shipmentDescription],
  ];
  const cell = (right - MARGIN - 12) / 4;
  facts.forEach(([title, value], i) => {
    const x = MARGIN + 6 + (i % 4) * cell;
    const top = y + Math.floor(i / 4) * 26;
    text(page, title.toUpperCase(), { x, y: top, size: 6.5, font: canvas.bold, color: GREY });
    text(page, value || '—', { x, y: top + 11, size: 9.5, font: canvas.bold, maxWidth: cell - 8 });
  });
}

function writeLines(page: Page, canvas: Canvas, lines: (string | undefined)[], x: number, y: number, maxWidth: number): void {
  let top = y;
  let first = true;
  for (const value of lines) {
    if (!cleanText(value)) continue;
    if (top > y + 72) break;
    text(page, value, { x, y: top, size: first ? 11 : 9.5, font: first ? canvas.bold : canvas.regular, maxWidth });
    top += first ? 14 : 12;
    first = false;
  }
}

const COLUMNS = [
  { title: '#', width: 0.07, align: 'right' as const },
  { title: 'Tracking number', width: 0.3, align: 'left' as const },
  { title: 'Weight', width: 0.12, align: 'right' as const },
  { title: 'Dimensions (in)', width: 0.17, align: 'left' as const },
  { title: 'Postal code', width: 0.12, align: 'left' as const },
  { title: 'City', width: 0.22, align: 'left' as const },
];

function table(
  page: Page,
  canvas: Canvas,
  packages: DocumentPackage[],
  slice: { from: number; to: number; tableTop: number },
): void {
  const right = page.getWidth() - MARGIN;
  const full = right - MARGIN;
  const xs: number[] = [];
  let x = MARGIN;
  for (const column of COLUMNS) {
    xs.push(x);
    x += column.width * full;
  }
  const cellX = (i: number) => {
    const column = COLUMNS[i];
    const left = xs[i] ?? MARGIN;
    return column?.align === 'right' ? left + column.width * full - 8 : left + 2;
  };
  let y = slice.tableTop;
  box(page, MARGIN, y - 9, full, ROW, { fill: LIGHT });
  COLUMNS.forEach((column, i) => text(page, column.title, { x: cellX(i), y, size: 7.5, font: canvas.bold, align: column.align }));
  for (let index = slice.from; index < slice.to; index += 1) {
    const pkg = packages[index];
    if (!pkg) continue;
    y += ROW;
    if ((index - slice.from) % 2 === 1) box(page, MARGIN, y - 8.5, full, ROW, { fill: rgbStripe });
    const cells = [
      String(index + 1),
      pkg.trackingNumber || '—',
      pkg.weight !== undefined ? `${formatNumber(pkg.weight)} ${cleanText(pkg.weightUnit) || 'lb'}` : '—',
      pkg.length || pkg.width || pkg.height
        ? `${formatNumber(pkg.length)} × ${formatNumber(pkg.width)} × ${formatNumber(pkg.height)}`
        : '—',
      pkg.toPostalCode || '—',
      pkg.toCity || '—',
    ];
    cells.forEach((value, i) => {
      const column = COLUMNS[i];
      if (!column) return;
      text(page, value, {
        x: cellX(i),
        y,
        size: 8,
        font: i === 1 ? canvas.bold : canvas.regular,
        align: column.align,
        maxWidth: column.width * full - 10,
      });
    });
  }
}

const rgbStripe = rgb(0.96, 0.96, 0.96);

/** Cents as money text with two decimals (exact: summed as integers). */
function centsText(cents: bigint): string {
  return `${formatNumber(Number(cents / 100n), 0)}.${(cents % 100n).toString().padStart(2, '0')}`;
}

function closing(page: Page, canvas: Canvas, manifest: DocumentManifest, totals: Totals, top: number): void {
  const right = page.getWidth() - MARGIN;
  let y = top;
  line(page, MARGIN, y - 4, right, y - 4, 1.5);
  y += 12;
  text(page, 'TOTALS', { x: MARGIN, y, size: 8, font: canvas.bold, color: GREY });
  y += 16;
  const kg = lbToKg(totals.weightLb);
  const facts = [
    `Packages: ${formatNumber(totals.count, 0)}`,
    `Total weight: ${formatNumber(totals.weightLb)} lb (${formatNumber(kg)} kg)`,
    `Billable weight: ${formatNumber(totals.billableLb)} lb`,
    `Charges: ${centsText(totals.chargeCents)} ${totals.currency}` +
      (totals.unpriced > 0 ? ` (${formatNumber(totals.priced, 0)} priced, ${formatNumber(totals.unpriced, 0)} not priced)` : ''),
  ];
  facts.forEach((value, i) =>
    text(page, value, { x: MARGIN, y: y + i * 15, size: 11, font: canvas.bold, maxWidth: right - MARGIN }),
  );
  y += 45;
  const notes = [
    totals.unknownWeights > 0 ? `${totals.unknownWeights} package(s) without a weight are not in the total.` : '',
    manifest.cancelledPackages
      ? `${formatNumber(manifest.cancelledPackages, 0)} cancelled package(s) are not listed, counted or handed over.`
      : '',
  ].filter(Boolean);
  if (notes.length > 0) {
    y += 13;
    text(page, notes.join(' '), { x: MARGIN, y, size: 8, font: canvas.regular, color: GREY, maxWidth: right - MARGIN });
  }
  y += 28;
  text(page, 'TENDER', { x: MARGIN, y, size: 8, font: canvas.bold, color: GREY });
  text(
    page,
    `Received by the carrier in apparent good order, ${formatNumber(totals.count, 0)} package(s) as listed, manifest ${manifest.manifestId}.`,
    {
      x: MARGIN,
      y: y + 14,
      size: 9,
      font: canvas.regular,
      maxWidth: right - MARGIN,
    },
  );
  y += 50;
  if (manifest.pickups?.length) y = pickupBlock(page, canvas, manifest.pickups, y - 14, right) + 14;
  const half = (right - MARGIN - 24) / 2;
  const sign = (label: string, x: number, yy: number) => {
    line(page, x, yy, x + half, yy, 0.75);
    text(page, label, { x, y: yy + 10, size: 7.5, font: canvas.regular, color: GREY });
  };
  sign('Driver name (print)', MARGIN, y);
  sign('Driver signature', MARGIN + half + 24, y);
  y += 40;
  sign('Date and time of pickup', MARGIN, y);
  sign('Shipper signature', MARGIN + half + 24, y);
  y += 34;
  text(page, `Pieces counted at pickup: ________   Exceptions: ______________________________`, {
    x: MARGIN,
    y,
    size: 9,
    font: canvas.regular,
    maxWidth: right - MARGIN,
  });
}

/** "Tue 1 Dec 2026, 18:00–22:00 UTC": the pickup's window as the driver reads it (UTC: the paper has no time zone). */
function windowText(readyAt: string, closeAt: string): string {
  const ready = new Date(readyAt);
  const close = new Date(closeAt);
  const dayText = (d: Date) =>
    d.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = (d: Date) => d.toISOString().slice(11, 16);
  const sameDay = ready.toISOString().slice(0, 10) === close.toISOString().slice(0, 10);
  return sameDay
    ? `${dayText(ready)}, ${time(ready)}–${time(close)} UTC`
    : `${dayText(ready)} ${time(ready)} – ${dayText(close)} ${time(close)} UTC`;
}

/** The driver's pickup: its window, where, how many packages; returns where the block ends. */
function pickupBlock(page: Page, canvas: Canvas, pickups: readonly DocumentPickup[], top: number, right: number): number {
  let y = top;
  text(page, pickups.length === 1 ? 'PICKUP' : 'PICKUPS', { x: MARGIN, y, size: 8, font: canvas.bold, color: GREY });
  y += 16;
  // Three lines each: a window across midnight names two dates, and on one line with the id it pushed the id off the page.
  for (const pickup of pickups) {
    const state = pickup.status === 'completed' ? 'Collected' : 'Scheduled';
    text(page, `${state} ${windowText(pickup.readyAt, pickup.closeAt)}`, {
      x: MARGIN,
      y,
      size: 9.5,
      font: canvas.bold,
      maxWidth: right - MARGIN,
    });
    text(page, `${formatNumber(pickup.packageCount, 0)} package(s) · ${pickup.id}`, {
      x: MARGIN,
      y: y + 12,
      size: 8,
      font: canvas.regular,
      maxWidth: right - MARGIN,
    });
    text(page, [pickup.address, pickup.instructions].filter(Boolean).join(' · '), {
      x: MARGIN,
      y: y + 23,
      size: 8,
      font: canvas.regular,
      maxWidth: right - MARGIN,
    });
    y += PICKUP_LINES;
  }
  return y;
}
