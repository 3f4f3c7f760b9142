import { rgb } from 'pdf-lib';
import {
  barcode,
  box,
  cancelledStamp,
  GREY,
  INCH,
  LIGHT,
  line,
  newCanvas,
  text,
  type Canvas,
  type Page,
  type PDFFont,
} from './pdf';
import { formatAwb, formatNumber, cleanText } from './text';
import { visualOrder } from './visual-order';
import {
  kilograms,
  totalValue,
  type CustomsLine,
  type CustomsParty,
  type DocumentCustomsDeclaration,
} from './customs-declaration';
import type { PaperSize } from './types';

// The customs declaration of a parcel: the UPU's CN 23 boxes (sender, addressee, detailed description of contents,
// quantity, net weight, value, HS tariff number, country of origin, totals, category of item, the sender's
// certification and signature) with what a commercial invoice adds (incoterm, currency, exporter and importer
// references, house and master waybill). One declaration starts on a page of its own and runs over as many pages
// as its items need; a manifest's PDF is every handed-over house's declaration, one after the other.

const SIZES: Record<PaperSize, [number, number]> = { letter: [8.5 * INCH, 11 * INCH], a4: [595.28, 841.89] };
const MARGIN = 36;
const FOOTER_TOP = 30;
const LINE = 9.5; // one line of an item's description
const ROW_PAD = 5;
/** An item's description wraps over at most this many lines (the API keeps one to 256 characters: about six). */
const MAX_DESCRIPTION_LINES = 8;
const FIRST_TABLE_TOP = 332;
const NEXT_TABLE_TOP = 96;
const CLOSING_HEIGHT = 206;

export interface CustomsDeclarationOptions {
  paper?: PaperSize;
}

const CATEGORIES: [string, string][] = [
  ['merchandise', 'Sale of goods'],
  ['gift', 'Gift'],
  ['sample', 'Commercial sample'],
  ['documents', 'Documents'],
  ['return_goods', 'Returned goods'],
  ['other', 'Other'],
];

const CERTIFICATION =
  'I, the undersigned, whose name and address are given on the item, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.';

/** One declaration per house, in order; a manifest with none gets one page saying so. */
export async function renderCustomsDeclarations(
  declarations: readonly DocumentCustomsDeclaration[],
  options: CustomsDeclarationOptions & { title: string; generatedAt?: Date; emptyNote?: string } = { title: '' },
): Promise<Uint8Array> {
  const [width, height] = SIZES[options.paper ?? 'letter'];
  const canvas = await newCanvas(options.title, options.generatedAt);
  declarations.forEach((declaration, index) =>
    drawDeclaration(canvas, declaration, [width, height], { number: index + 1, of: declarations.length }),
  );
  if (declarations.length === 0) {
    const page = canvas.addPage([width, height]);
    text(page, options.emptyNote ?? 'This manifest has no packages.', { x: MARGIN, y: 120, size: 14, font: canvas.bold });
    text(page, options.title, { x: MARGIN, y: 140, size: 10, font: canvas.regular, maxWidth: width - 2 * MARGIN });
  }
  return canvas.save();
}

/** One parcel's declaration as its own PDF. */
export function renderCustomsDeclaration(
  declaration: DocumentCustomsDeclaration,
  options: CustomsDeclarationOptions = {},
): Promise<Uint8Array> {
  return renderCustomsDeclarations([declaration], {
    ...options,
    title: `Customs declaration ${declaration.trackingNumber ?? declaration.carrierBarcode ?? ''}`,
    generatedAt: declaration.generatedAt,
  });
}

// ---------------------------------------------------------------------------------------------------------------

interface Row {
  cells: string[];
  description: string[];
  height: number;
}

function drawDeclaration(
  canvas: Canvas,
  declaration: DocumentCustomsDeclaration,
  size: [number, number],
  house: { number: number; of: number },
): void {
  const [width, height] = size;
  const full = width - 2 * MARGIN;
  const rows = tableRows(canvas, declaration, full);
  const bottom = height - FOOTER_TOP - 10;
  // Which rows go on which page; the closing block (totals, certification, signature) after the last row.
  const pages: { from: number; to: number; top: number }[] = [];
  let from = 0;
  let top = FIRST_TABLE_TOP;
  do {
    let y = top + HEAD_HEIGHT;
    let to = from;
    while (to < rows.length && y + (rows[to]?.height ?? 0) <= bottom) y += rows[to++]?.height ?? 0;
    if (to === from && from < rows.length) to += 1; // a row taller than a page: drawn alone, clipped by the footer
    pages.push({ from, to, top });
    from = to;
    top = NEXT_TABLE_TOP;
  } while (from < rows.length);
  const last = pages[pages.length - 1]!;
  let closingTop = last.top + HEAD_HEIGHT + rows.slice(last.from, last.to).reduce((sum, row) => sum + row.height, 0) + 8;
  if (closingTop + CLOSING_HEIGHT > bottom) {
    pages.push({ from: rows.length, to: rows.length, top: NEXT_TABLE_TOP });
    closingTop = NEXT_TABLE_TOP;
  }
  pages.forEach((slice, index) => {
    const page = canvas.addPage([width, height]);
    if (index === 0) firstPage(page, canvas, declaration);
    else continuationHeader(page, canvas, declaration, index + 1, pages.length);
    if (slice.to > slice.from || index === 0) table(page, canvas, declaration, rows, slice);
    if (index === pages.length - 1) closing(page, canvas, declaration, closingTop);
    footer(page, canvas, declaration, house, index + 1, pages.length);
    if (declaration.state === 'cancelled') cancelledStamp(page, canvas);
  });
}

const COLUMNS = [
  { title: '#', width: 0.04, align: 'right' as const },
  { title: 'Detailed description of contents', width: 0.38, align: 'left' as const },
  { title: 'Qty', width: 0.06, align: 'right' as const },
  { title: 'Net weight (kg)', width: 0.13, align: 'right' as const },
  { title: 'Value', width: 0.15, align: 'right' as const },
  { title: 'HS tariff no.', width: 0.14, align: 'left' as const },
  { title: 'Origin', width: 0.1, align: 'left' as const },
];
const HEAD_HEIGHT = 14;

function columnX(full: number): number[] {
  const xs: number[] = [];
  let x = MARGIN;
  for (const column of COLUMNS) {
    xs.push(x);
    x += column.width * full;
  }
  return xs;
}

/** A decimal string grouped by thousands, its decimals as stored. */
function money(value: string | undefined): string {
  if (!value) return '';
  const [whole = '', fraction] = value.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** An HS code as invoices print it: 6109.10 or 6109.10.00. */
function hsCode(code: string | undefined): string {
  if (!code || !/^\d{6,10}$/.test(code)) return cleanText(code);
  return [code.slice(0, 4), code.slice(4, 6), code.slice(6, 8), code.slice(8)].filter(Boolean).join('.');
}

function tableRows(canvas: Canvas, declaration: DocumentCustomsDeclaration, full: number): Row[] {
  const descriptionWidth = (COLUMNS[1]?.width ?? 0.4) * full - 8;
  const rows = declaration.items.map((item: CustomsLine, i): Row => {
    const kg = kilograms(item.weight, item.weightUnit);
    const description = wrap(canvas.regular, item.description || '—', 7.5, descriptionWidth, MAX_DESCRIPTION_LINES);
    return {
      cells: [
        String(i + 1),
        '',
        item.quantity !== undefined ? formatNumber(item.quantity, 0) : '—',
        kg !== undefined ? formatNumber(kg, 3) : '—',
        money(item.value) || '—',
        hsCode(item.hsCode) || '—',
        cleanText(item.originCountry) || '—',
      ],
      description,
      height: Math.max(1, description.length) * LINE + ROW_PAD,
    };
  });
  if (rows.length > 0) return rows;
  const note = declaration.declared
    ? 'No items declared.'
    : 'No customs declaration was sent with this package: describe its contents here.';
  const described = declaration.description ? `${note} Package description: ${declaration.description}` : note;
  const description = wrap(canvas.regular, described, 7.5, descriptionWidth, MAX_DESCRIPTION_LINES);
  return [{ cells: ['', '', '', '', '', '', ''], description, height: description.length * LINE + ROW_PAD + 14 }];
}

/**
 * `value` in lines that fit `maxWidth` (measured as drawn), broken at spaces, a word longer than a line broken inside
 * it; at most `maxLines`, the last one ending in an ellipsis when the text goes on.
 */
export function wrap(font: PDFFont, value: string, size: number, maxWidth: number, maxLines: number): string[] {
  const clean = cleanText(value);
  if (clean === '') return [];
  const fits = (s: string) => font.widthOfTextAtSize(visualOrder(s), size) <= maxWidth;
  const out: string[] = [];
  // Lines are made until one more than fits is known to exist: the work is bounded by maxLines, not by the text.
  const full = () => out.length > maxLines;
  let current = '';
  for (const word of clean.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (current) out.push(current);
    current = '';
    let rest = Array.from(word);
    while (!full() && !fits(rest.join(''))) {
      let n = 1;
      while (n < rest.length && fits(rest.slice(0, n + 1).join(''))) n += 1;
      out.push(rest.slice(0, n).join(''));
      rest = rest.slice(n);
    }
    if (full()) break;
    current = rest.join('');
  }
  if (current && !full()) out.push(current);
  if (!full()) return out;
  const shown = out.slice(0, maxLines);
  let cut = Array.from(shown[maxLines - 1] ?? '');
  while (cut.length > 0 && !fits(`${cut.join('').trimEnd()}…`)) cut = cut.slice(0, -1);
  shown[maxLines - 1] = `${cut.join('').trimEnd()}…`;
  return shown;
}

function label(page: Page, canvas: Canvas, title: string, x: number, y: number): void {
  text(page, title.toUpperCase(), { x, y, size: 6.5, font: canvas.bold, color: GREY });
}

function firstPage(page: Page, canvas: Canvas, d: DocumentCustomsDeclaration): void {
  const right = page.getWidth() - MARGIN;
  const full = right - MARGIN;
  text(page, 'CUSTOMS DECLARATION', { x: MARGIN, y: MARGIN + 14, size: 17, font: canvas.bold });
  text(page, 'CN 23', { x: MARGIN, y: MARGIN + 34, size: 14, font: canvas.bold });
  text(page, 'Commercial invoice · Carrier', { x: MARGIN + 52, y: MARGIN + 33, size: 9.5, font: canvas.regular, color: GREY });
  text(page, 'May be opened officially', { x: MARGIN, y: MARGIN + 48, size: 7.5, font: canvas.regular, color: GREY });
  // Said in words too, not only by the stamp across the page: the stamp is a drawing, this is what text readers find.
  if (d.state === 'cancelled') text(page, 'CANCELLED', { x: MARGIN + 230, y: MARGIN + 14, size: 13, font: canvas.bold });
  // The carrier barcode is the parcel's sort barcode (its label's); a cancelled parcel's paper has nothing to scan.
  const code = d.carrierBarcode ?? '';
  const scanned =
    d.state !== 'cancelled' &&
    barcode(page, canvas, code, {
      x: right - 210,
      y: MARGIN,
      maxWidth: 210,
      height: 32,
      caption: code,
      captionSize: 9,
      minModule: 0.9,
    }) > 0;
  if (!scanned && code) text(page, code, { x: right, y: MARGIN + 30, size: 12, font: canvas.bold, align: 'right' });
  line(page, MARGIN, 94, right, 94, 1.5);

  // Widths by what each holds: a ManifestID is MAN- and 16 characters, a tracking number up to 35.
  const refs: [string, string | undefined, number][] = [
    ['Tracking number', d.trackingNumber, 0.25],
    ['House waybill', d.houseWaybill, 0.15],
    ['Master air waybill', formatAwb(d.masterWaybill), 0.17],
    ['Manifest', d.manifestId, 0.27],
    ['Date', d.manifestDate, 0.16],
  ];
  box(page, MARGIN, 100, full, 30, { fill: LIGHT });
  let cellX = MARGIN + 5;
  for (const [title, value, share] of refs) {
    label(page, canvas, title, cellX, 110);
    text(page, value || '—', { x: cellX, y: 123, size: 9, font: canvas.bold, maxWidth: share * full - 8, minSize: 6.5 });
    cellX += share * full;
  }

  const half = (full - 12) / 2;
  partyBlock(page, canvas, 'From (sender / exporter)', d.sender, MARGIN, 138, half, [['Exporter EORI', d.exporterEori]]);
  partyBlock(page, canvas, 'To (addressee / importer)', d.recipient, MARGIN + half + 12, 138, half, [
    ['Importer EORI', d.importerEori],
    ['Importer tax ID', d.importerTaxId],
    ['IOSS', d.ioss],
  ]);

  // Category of item (CN 23 box 10), then the delivery terms and the currency of every value.
  const y = 290;
  label(page, canvas, 'Category of item', MARGIN, y);
  let x = MARGIN;
  for (const [value, name] of CATEGORIES) {
    const checked = d.contentsType === value;
    box(page, x, y + 6, 8, 8, { border: 0.75, ...(checked ? { fill: rgb(0, 0, 0) } : {}) });
    text(page, name, { x: x + 11, y: y + 13, size: 8, font: checked ? canvas.bold : canvas.regular });
    x += 11 + canvas.regular.widthOfTextAtSize(name, 8) + 14;
  }
  text(page, `Delivery terms (Incoterm): ${d.incoterm ?? '—'} · Currency: ${d.currency ?? '—'}`, {
    x: MARGIN,
    y: y + 29,
    size: 9,
    font: canvas.bold,
    maxWidth: full,
  });
}

function partyBlock(
  page: Page,
  canvas: Canvas,
  title: string,
  party: CustomsParty,
  x: number,
  y: number,
  width: number,
  refs: [string, string | undefined][],
): void {
  box(page, x, y, width, 140, { border: 0.75 });
  label(page, canvas, title, x + 6, y + 11);
  const place = [party.city, [party.state, party.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const lines = [party.company, party.name, party.address1, party.address2, place, party.country].filter((v) => cleanText(v));
  let top = y + 25;
  lines.slice(0, 6).forEach((value, i) => {
    text(page, value, {
      x: x + 6,
      y: top,
      size: i === 0 ? 10 : 9,
      font: i === 0 ? canvas.bold : canvas.regular,
      maxWidth: width - 12,
    });
    top += i === 0 ? 13 : 11.5;
  });
  if (lines.length === 0) text(page, 'Not given', { x: x + 6, y: top, size: 9, font: canvas.regular, color: GREY });
  const contact = [['Phone', party.phone], ['E-mail', party.email], ...refs].filter(([, value]) => cleanText(value)) as [
    string,
    string,
  ][];
  let bottom = y + 140 - 6 - (contact.length - 1) * 10.5;
  for (const [name, value] of contact) {
    text(page, `${name}: ${cleanText(value)}`, { x: x + 6, y: bottom, size: 8, font: canvas.regular, maxWidth: width - 12 });
    bottom += 10.5;
  }
}

function continuationHeader(page: Page, canvas: Canvas, d: DocumentCustomsDeclaration, number: number, total: number): void {
  const right = page.getWidth() - MARGIN;
  text(page, 'CUSTOMS DECLARATION CN 23 · continued', { x: MARGIN, y: MARGIN + 12, size: 13, font: canvas.bold });
  text(page, `Tracking ${d.trackingNumber ?? '—'} · ${d.carrierBarcode ?? ''}`, {
    x: MARGIN,
    y: MARGIN + 28,
    size: 9.5,
    font: canvas.regular,
    maxWidth: right - MARGIN - 120,
  });
  text(page, `Page ${number} of ${total}`, { x: right, y: MARGIN + 12, size: 10, font: canvas.bold, align: 'right' });
  if (d.state === 'cancelled') text(page, 'CANCELLED', { x: right, y: MARGIN + 28, size: 10, font: canvas.bold, align: 'right' });
  line(page, MARGIN, NEXT_TABLE_TOP - 20, right, NEXT_TABLE_TOP - 20, 1.5);
}

function table(
  page: Page,
  canvas: Canvas,
  d: DocumentCustomsDeclaration,
  rows: Row[],
  slice: { from: number; to: number; top: number },
): void {
  const full = page.getWidth() - 2 * MARGIN;
  const xs = columnX(full);
  const cellX = (i: number) => {
    const column = COLUMNS[i];
    const left = xs[i] ?? MARGIN;
    return column?.align === 'right' ? left + column.width * full - 5 : left + 3;
  };
  let y = slice.top;
  box(page, MARGIN, y, full, HEAD_HEIGHT, { fill: LIGHT });
  COLUMNS.forEach((column, i) => {
    const title = i === 4 && d.currency ? `Value (${d.currency})` : column.title;
    text(page, title, {
      x: cellX(i),
      y: y + 10,
      size: 7,
      font: canvas.bold,
      align: column.align,
      maxWidth: column.width * full - 6,
    });
  });
  y += HEAD_HEIGHT;
  for (let index = slice.from; index < slice.to; index += 1) {
    const row = rows[index];
    if (!row) continue;
    if ((index - slice.from) % 2 === 1) box(page, MARGIN, y, full, row.height, { fill: STRIPE });
    row.cells.forEach((value, i) => {
      const column = COLUMNS[i];
      if (!column || i === 1 || value === '') return;
      text(page, value, {
        x: cellX(i),
        y: y + LINE,
        size: 8,
        font: canvas.regular,
        align: column.align,
        maxWidth: column.width * full - 8,
      });
    });
    row.description.forEach((value, n) =>
      text(page, value, { x: cellX(1), y: y + LINE + n * LINE, size: 7.5, font: canvas.regular }),
    );
    y += row.height;
  }
  line(page, MARGIN, y, MARGIN + full, y, 0.5, GREY);
}

const STRIPE = rgb(0.96, 0.96, 0.96);

function closing(page: Page, canvas: Canvas, d: DocumentCustomsDeclaration, top: number): void {
  const right = page.getWidth() - MARGIN;
  const full = right - MARGIN;
  let y = top + 4;
  // Totals (CN 23 boxes 4 and 6): quantities, net weight, value in exact decimals; the parcel's gross weight.
  let quantity = 0;
  let netKg = 0;
  let unknownWeights = 0;
  for (const item of d.items) {
    quantity += item.quantity ?? 0;
    const kg = kilograms(item.weight, item.weightUnit);
    if (kg === undefined) unknownWeights += 1;
    else netKg += kg;
  }
  const total = totalValue(d.items);
  const gross = kilograms(d.grossWeight, d.grossWeightUnit);
  const facts: [string, string][] = [
    ['Items (quantity)', formatNumber(quantity, 0)],
    ['Total net weight', d.items.length > 0 && unknownWeights < d.items.length ? `${formatNumber(netKg, 3)} kg` : '—'],
    ['Total value', total !== undefined ? `${money(total)} ${d.currency ?? ''}`.trim() : '—'],
    ['Total gross weight', gross !== undefined ? `${formatNumber(gross, 3)} kg` : '—'],
  ];
  const cell = full / facts.length;
  facts.forEach(([title, value], i) => {
    label(page, canvas, title, MARGIN + i * cell, y + 4);
    text(page, value, { x: MARGIN + i * cell, y: y + 18, size: 10, font: canvas.bold, maxWidth: cell - 6, minSize: 7 });
  });
  y += 28;
  if (unknownWeights > 0 && d.items.length > unknownWeights) {
    text(page, `${unknownWeights} item line(s) without a weight are not in the net weight.`, {
      x: MARGIN,
      y: y + 4,
      size: 7.5,
      font: canvas.regular,
      color: GREY,
    });
  }
  y += 14;
  const comments = [
    d.incoterm
      ? `Delivery terms ${d.incoterm}${d.incoterm === 'DDP' ? ' (duties and taxes paid by the sender)' : d.incoterm === 'DAP' ? ' (duties and taxes paid by the addressee)' : ''}`
      : '',
    d.ioss ? `EU VAT collected under IOSS ${d.ioss}` : '',
    d.containerId ? `Container ${d.containerId}` : '',
  ].filter(Boolean);
  label(page, canvas, 'Comments', MARGIN, y);
  const commentLines = wrap(canvas.regular, comments.join(' · ') || '—', 8.5, full, 2);
  commentLines.forEach((value, n) => text(page, value, { x: MARGIN, y: y + 12 + n * 11, size: 8.5, font: canvas.regular }));
  y += 18 + commentLines.length * 11;
  line(page, MARGIN, y, right, y, 0.75);
  y += 12;
  label(page, canvas, "Sender's certification", MARGIN, y);
  wrap(canvas.regular, CERTIFICATION, 8.5, full, 4).forEach((value, n) =>
    text(page, value, { x: MARGIN, y: y + 13 + n * 11, size: 8.5, font: canvas.regular }),
  );
  y += 76;
  const third = (full - 24) / 3;
  const sign = (title: string, x: number) => {
    line(page, x, y, x + third, y, 0.75);
    text(page, title, { x, y: y + 10, size: 7.5, font: canvas.regular, color: GREY });
  };
  sign('Place and date', MARGIN);
  sign("Sender's signature", MARGIN + third + 12);
  sign('Name of signatory (print)', MARGIN + 2 * (third + 12));
}

function footer(
  page: Page,
  canvas: Canvas,
  d: DocumentCustomsDeclaration,
  house: { number: number; of: number },
  number: number,
  total: number,
): void {
  const y = page.getHeight() - FOOTER_TOP + 12;
  const right = page.getWidth() - MARGIN;
  line(page, MARGIN, y - 11, right, y - 11, 0.5, GREY);
  const which = house.of > 1 ? ` · house ${formatNumber(house.number, 0)} of ${formatNumber(house.of, 0)}` : '';
  text(page, `${d.manifestId}${which} · generated ${d.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`, {
    x: MARGIN,
    y,
    size: 8,
    font: canvas.regular,
    color: GREY,
    maxWidth: right - MARGIN - 90,
  });
  text(page, `page ${number} of ${total}`, { x: right, y, size: 8, font: canvas.regular, align: 'right', color: GREY });
}
