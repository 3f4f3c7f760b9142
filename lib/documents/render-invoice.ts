import { rgb } from 'pdf-lib';
import { box, GREY, INCH, LIGHT, line, newCanvas, text, type Canvas, type Page } from './pdf';
import { invoiceNumberText } from './text';

// The invoice PDF (GET /invoices/{id}/document): a pure function of the issued invoice. Totals by service and by
// manifest, then the adjustments with their reasons; "page n of N" and the invoice number on every page, and a test
// invoice says TEST on every page (a banner in the header and a stamp across the page), so that no printed copy of
// one is ever taken for a bill.

export interface DocumentInvoice {
  number: number;
  id: string;
  test: boolean;
  accountName: string;
  periodKind: string;
  periodStart: Date;
  periodEnd: Date;
  timeZone: string;
  currency: string;
  total: string;
  lineCount: number;
  charges: string;
  adjustments: string;
  voids: string;
  issuedAt: Date;
  byService: { service: string; lines: number; amount: string }[];
  byManifest: { manifest_id: string; lines: number; amount: string }[];
  /** The first of them (the CSV has every line). */
  adjustmentLines: { occurredAt: Date; reference: string; service: string; amount: string; reason: string }[];
  adjustmentCount: number;
}

const [WIDTH, HEIGHT] = [8.5 * INCH, 11 * INCH];
const MARGIN = 40;
const ROW = 13;
const HEADER_BOTTOM = 104;
const BOTTOM = HEIGHT - 46;
const TEST_RED = rgb(0.75, 0.1, 0.1);

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/** A table flowed over as many pages as it needs, its column heads repeated on each. */
interface Section {
  title: string;
  columns: Column[];
  rows: string[][];
  empty: string;
  note?: string;
}

const day = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
const stamp = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export async function renderInvoicePdf(invoice: DocumentInvoice): Promise<Uint8Array> {
  const canvas = await newCanvas(
    `Invoice ${invoiceNumberText(invoice.number)}${invoice.test ? ' (TEST)' : ''}`,
    invoice.issuedAt,
  );
  // A page is written out once the next one starts, so its header's "of N" must be known before: the flow runs once
  // to count the pages, then again to draw them.
  const total = flow(invoice, undefined, 0);
  flow(invoice, canvas, total);
  return canvas.save();
}

/** Lays the invoice out; draws it on `canvas` when given (with `total` pages), and answers the number of pages. */
function flow(invoice: DocumentInvoice, canvas: Canvas | undefined, total: number): number {
  let count = 0;
  let page: Page | undefined;
  // The stamp goes over what the page holds (the table's stripes would hide it), before the page is written out.
  const stamp = () => {
    if (invoice.test && page && canvas) testStamp(page, canvas);
  };
  const newPage = () => {
    count += 1;
    stamp();
    if (canvas) {
      page = canvas.addPage([WIDTH, HEIGHT]);
      header(page, canvas, invoice, count, total);
      footer(page, canvas, invoice, count, total);
    }
    return HEADER_BOTTOM + 16;
  };
  newPage();
  let y = page && canvas ? summary(page, canvas, invoice) : SUMMARY_BOTTOM;
  for (const section of sections(invoice)) {
    if (y + ROW * 4 > BOTTOM) y = newPage();
    if (page && canvas) sectionTitle(page, canvas, section.title, y);
    y += 8;
    if (page && canvas) heads(page, canvas, section.columns, y);
    y += ROW;
    if (section.rows.length === 0) {
      if (page && canvas) text(page, section.empty, { x: MARGIN, y: y + ROW, size: 9, font: canvas.regular, color: GREY });
      y += ROW * 2;
    }
    section.rows.forEach((row, i) => {
      if (y + ROW > BOTTOM) {
        y = newPage();
        if (page && canvas) heads(page, canvas, section.columns, y);
        y += ROW;
      }
      y += ROW;
      if (!page || !canvas) return;
      if (i % 2 === 1) box(page, MARGIN, y - 9.5, WIDTH - 2 * MARGIN, ROW, { fill: STRIPE });
      cells(page, canvas, section.columns, row, y);
    });
    if (section.note) {
      y += ROW + 4;
      if (page && canvas)
        text(page, section.note, { x: MARGIN, y, size: 8, font: canvas.regular, color: GREY, maxWidth: WIDTH - 2 * MARGIN });
    }
    y += ROW * 2;
  }
  stamp();
  return count;
}

function sections(invoice: DocumentInvoice): Section[] {
  return [
    {
      title: 'Totals by service',
      columns: [
        { title: 'Service', width: 0.6 },
        { title: 'Lines', width: 0.15, align: 'right' },
        { title: `Amount (${invoice.currency})`, width: 0.25, align: 'right' },
      ],
      rows: invoice.byService.map((s) => [s.service, s.lines.toLocaleString('en-US'), s.amount]),
      empty: 'No lines.',
    },
    {
      title: 'Totals by manifest',
      columns: [
        { title: 'Manifest', width: 0.6 },
        { title: 'Lines', width: 0.15, align: 'right' },
        { title: `Amount (${invoice.currency})`, width: 0.25, align: 'right' },
      ],
      rows: invoice.byManifest.map((m) => [m.manifest_id, m.lines.toLocaleString('en-US'), m.amount]),
      empty: 'No lines.',
    },
    {
      title: 'Adjustments (re-rated on what the hub measured)',
      columns: [
        { title: 'Date', width: 0.14 },
        { title: 'Package', width: 0.24 },
        { title: 'Service', width: 0.14 },
        { title: 'Reason', width: 0.34 },
        { title: 'Amount', width: 0.14, align: 'right' },
      ],
      rows: invoice.adjustmentLines.map((a) => [
        day(a.occurredAt, invoice.timeZone),
        a.reference,
        a.service,
        a.reason || '—',
        a.amount,
      ]),
      empty: 'No adjustments on this invoice.',
      note:
        invoice.adjustmentCount > invoice.adjustmentLines.length
          ? `The first ${invoice.adjustmentLines.length.toLocaleString('en-US')} of ${invoice.adjustmentCount.toLocaleString('en-US')} adjustments; every line is in the invoice's CSV.`
          : undefined,
    },
  ];
}

const STRIPE = rgb(0.96, 0.96, 0.96);

function header(page: Page, canvas: Canvas, invoice: DocumentInvoice, number: number, total: number): void {
  const right = WIDTH - MARGIN;
  text(page, invoice.test ? 'INVOICE · TEST' : 'INVOICE', {
    x: MARGIN,
    y: MARGIN + 12,
    size: 16,
    font: canvas.bold,
    color: invoice.test ? TEST_RED : undefined,
  });
  text(page, invoice.accountName, { x: MARGIN, y: MARGIN + 28, size: 10, font: canvas.regular, maxWidth: 300 });
  text(page, invoiceNumberText(invoice.number), { x: right, y: MARGIN + 12, size: 13, font: canvas.bold, align: 'right' });
  text(page, `Page ${number} of ${total}`, { x: right, y: MARGIN + 28, size: 10, font: canvas.bold, align: 'right' });
  if (invoice.test) {
    box(page, MARGIN, MARGIN + 36, WIDTH - 2 * MARGIN, 16, { fill: rgb(1, 0.92, 0.92) });
    text(page, 'TEST ENVIRONMENT — NOT A BILL: nothing on this invoice is owed', {
      x: WIDTH / 2,
      y: MARGIN + 47,
      size: 9,
      font: canvas.bold,
      color: TEST_RED,
      align: 'center',
    });
  }
  line(page, MARGIN, HEADER_BOTTOM - 8, right, HEADER_BOTTOM - 8, 1.5);
}

function footer(page: Page, canvas: Canvas, invoice: DocumentInvoice, number: number, total: number): void {
  const y = HEIGHT - 24;
  const right = WIDTH - MARGIN;
  line(page, MARGIN, y - 11, right, y - 11, 0.5, GREY);
  text(
    page,
    `${invoiceNumberText(invoice.number)} · ${invoice.id} · issued ${stamp(invoice.issuedAt)}${invoice.test ? ' · TEST' : ''}`,
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

function testStamp(page: Page, canvas: Canvas): void {
  const size = 120;
  const word = 'TEST';
  const width = canvas.bold.widthOfTextAtSize(word, size);
  const angle = Math.atan2(HEIGHT, WIDTH);
  const x = WIDTH / 2 - (Math.cos(angle) * width) / 2 + (Math.sin(angle) * size) / 3;
  const y = HEIGHT / 2 - (Math.sin(angle) * width) / 2 - (Math.cos(angle) * size) / 3;
  page.drawText(word, x, y, size, canvas.bold, TEST_RED, { rotate: angle, opacity: 0.18 });
}

/** Where the summary block ends (summary() answers the same). */
const SUMMARY_BOTTOM = HEADER_BOTTOM + 14 + 50 + 15 * 3 + 6 + 30;

function summary(page: Page, canvas: Canvas, invoice: DocumentInvoice): number {
  let y = HEADER_BOTTOM + 14;
  const kind =
    invoice.periodKind === 'on_demand' ? 'Closed on demand (test)' : invoice.periodKind === 'week' ? 'Weekly' : 'Monthly';
  // The end is exclusive: the last day shown is the day before it, as a person reads a period.
  const lastDay = new Date(invoice.periodEnd.getTime() - 1);
  const facts: [string, string][] = [
    ['Period', `${day(invoice.periodStart, invoice.timeZone)} to ${day(lastDay, invoice.timeZone)}`],
    ['Billing', `${kind}, ${invoice.timeZone}`],
    ['Issued', stamp(invoice.issuedAt)],
    ['Lines', invoice.lineCount.toLocaleString('en-US')],
  ];
  const widths = [0.32, 0.3, 0.24, 0.14];
  box(page, MARGIN, y - 10, WIDTH - 2 * MARGIN, 34, { fill: LIGHT });
  let x = MARGIN + 6;
  facts.forEach(([title, value], i) => {
    const cell = (widths[i] ?? 0.25) * (WIDTH - 2 * MARGIN);
    text(page, title.toUpperCase(), { x, y, size: 6.5, font: canvas.bold, color: GREY });
    text(page, value, { x, y: y + 13, size: 9.5, font: canvas.bold, maxWidth: cell - 10, minSize: 7 });
    x += cell;
  });
  y += 50;
  const rows: [string, string][] = [
    ['Charges', invoice.charges],
    ['Adjustments', invoice.adjustments],
    ['Voids (credits)', invoice.voids === '0.00' ? '0.00' : `−${invoice.voids}`],
  ];
  const right = WIDTH - MARGIN;
  for (const [label, value] of rows) {
    text(page, label, { x: right - 260, y, size: 10, font: canvas.regular });
    text(page, `${value} ${invoice.currency}`, { x: right, y, size: 10, font: canvas.regular, align: 'right' });
    y += 15;
  }
  line(page, right - 260, y - 9, right, y - 9, 0.75);
  y += 6;
  text(page, 'Total', { x: right - 260, y, size: 13, font: canvas.bold });
  text(page, `${invoice.total} ${invoice.currency}`, { x: right, y, size: 13, font: canvas.bold, align: 'right' });
  return y + 30;
}

function sectionTitle(page: Page, canvas: Canvas, title: string, y: number): void {
  text(page, title.toUpperCase(), { x: MARGIN, y, size: 8.5, font: canvas.bold, color: GREY });
}

function columnX(columns: Column[], i: number): number {
  const full = WIDTH - 2 * MARGIN;
  let x = MARGIN;
  for (let c = 0; c < i; c++) x += (columns[c]?.width ?? 0) * full;
  const column = columns[i];
  return column?.align === 'right' ? x + column.width * full - 6 : x + 4;
}

function heads(page: Page, canvas: Canvas, columns: Column[], y: number): number {
  const top = y + ROW;
  box(page, MARGIN, top - 9.5, WIDTH - 2 * MARGIN, ROW, { fill: LIGHT });
  columns.forEach((c, i) =>
    text(page, c.title, { x: columnX(columns, i), y: top, size: 7.5, font: canvas.bold, align: c.align }),
  );
  return top;
}

function cells(page: Page, canvas: Canvas, columns: Column[], row: string[], y: number): void {
  const full = WIDTH - 2 * MARGIN;
  row.forEach((value, i) => {
    const c = columns[i];
    if (!c) return;
    text(page, value, {
      x: columnX(columns, i),
      y,
      size: 8.5,
      font: canvas.regular,
      align: c.align,
      maxWidth: c.width * full - 10,
    });
  });
}
