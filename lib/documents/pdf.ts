import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFNumber, PDFPageLeaf, rgb, type PDFRef, type RGB } from 'pdf-lib';
import { code128, encodable } from './barcode';
import { fontFiles } from './fonts';
import { PdfOutput } from './pdf-output';
import { DocumentFont, Face } from './pdf-font';
import { cleanText, fitText, shrinkToFit } from './text';
import { visualOrder } from './visual-order';

// Drawing helpers shared by the handover manifest, tags and labels, in points from the page's top-left. Page content
// is written as PDF operators, one compressed string per page (pdf-lib's drawText made ~10 objects a string), and
// finished pages leave pdf-lib every CHUNK_PAGES, so memory does not grow with the page count
// (docs/decisions/document-rendering.md).

export const INCH = 72;
export const BLACK = rgb(0, 0, 0);
export const GREY = rgb(0.35, 0.35, 0.35);
export const LIGHT = rgb(0.9, 0.9, 0.9);

/** Pages kept as objects before they are written out as bytes (a label's page is ~1 kB compressed). */
export const CHUNK_PAGES = 250;

let faces: { regular: Face; bold: Face } | undefined;
function loadFaces(): { regular: Face; bold: Face } {
  if (!faces) {
    const files = fontFiles();
    faces = { regular: new Face('DejaVuSans', files.regular), bold: new Face('DejaVuSans-Bold', files.bold) };
  }
  return faces;
}

export type PDFFont = DocumentFont;

function n(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return rounded === 0 ? '0' : String(rounded);
}

function colour(c: RGB): string {
  return `${n(c.red)} ${n(c.green)} ${n(c.blue)}`;
}

/** deflateSync's result is a slice of its first output buffer, which pdf-lib holds until the page is written out. */
const DEFLATE_CHUNK = 2048;
let scratch = Buffer.allocUnsafe(64 * 1024);

/** One buffer reused for every page (the compression copies it). */
function latin1(text: string): Buffer {
  if (text.length > scratch.length) scratch = Buffer.allocUnsafe(text.length);
  return scratch.subarray(0, scratch.write(text, 'latin1'));
}

export class Page {
  private readonly ops: string[] = [];
  private fill = '0 0 0';
  private stroke = '0 0 0';
  private lineWidth = -1;
  private readonly fonts = new Map<DocumentFont, string>();
  private states = 0;
  private images = 0;

  content: PDFRef | undefined;

  constructor(
    private readonly canvas: Canvas,
    readonly leaf: PDFPageLeaf,
    readonly ref: PDFRef,
    private readonly width: number,
    private readonly height: number,
  ) {}

  getWidth(): number {
    return this.width;
  }

  getHeight(): number {
    return this.height;
  }

  private fontName(font: DocumentFont): string {
    let name = this.fonts.get(font);
    if (!name) {
      name = `F${this.fonts.size + 1}`;
      this.fonts.set(font, name);
      this.leaf.setFontDictionary(PDFName.of(name), font.ref);
    }
    return name;
  }

  private setFill(c: RGB): void {
    const value = colour(c);
    if (value !== this.fill) {
      this.ops.push(`${value} rg`);
      this.fill = value;
    }
  }

  drawText(
    value: string,
    x: number,
    y: number,
    size: number,
    font: DocumentFont,
    color: RGB,
    options: { rotate?: number; opacity?: number } = {},
  ): void {
    const hex = font.hex(value);
    const name = this.fontName(font);
    if (options.opacity !== undefined) {
      const gs = `GS${(this.states += 1)}`;
      this.leaf.setExtGState(
        PDFName.of(gs),
        this.canvas.doc.context.obj({ Type: 'ExtGState', ca: options.opacity, CA: options.opacity }),
      );
      const saved = this.fill;
      this.ops.push(`q /${gs} gs`);
      this.setFill(color);
      const a = options.rotate ?? 0;
      const m = (v: number) => String(Math.round(v * 1e6) / 1e6 || 0); // the matrix at 6 decimals: 3 moved the far end of the stamp
      this.ops.push(
        `BT /${name} ${n(size)} Tf ${m(Math.cos(a))} ${m(Math.sin(a))} ${m(-Math.sin(a))} ${m(Math.cos(a))} ${n(x)} ${n(y)} Tm <${hex}> Tj ET Q`,
      );
      this.fill = saved;
      return;
    }
    this.setFill(color);
    this.ops.push(`BT /${name} ${n(size)} Tf 1 0 0 1 ${n(x)} ${n(y)} Tm <${hex}> Tj ET`);
  }

  drawRect(x: number, y: number, width: number, height: number, options: { fill?: RGB; border?: number }): void {
    const path = `${n(x)} ${n(y)} ${n(width)} ${n(height)} re`;
    if (options.border) {
      this.setStroke(BLACK, options.border);
      if (options.fill) this.setFill(options.fill);
      this.ops.push(`${path} ${options.fill ? 'B' : 'S'}`);
    } else if (options.fill) {
      this.setFill(options.fill);
      this.ops.push(`${path} f`);
    }
  }

  /** Black rectangles, each filled on its own as pdf-lib drew them (a barcode's bars). */
  drawBars(rects: [number, number, number, number][]): void {
    if (rects.length === 0) return;
    this.setFill(BLACK);
    this.ops.push(rects.map(([x, y, w, h]) => `${n(x)} ${n(y)} ${n(w)} ${n(h)} re f`).join(' '));
  }

  /** An embedded image (Canvas.embedImage) in the rectangle from its lower-left corner (x, y), in PDF coordinates. */
  drawImage(image: PDFRef, x: number, y: number, width: number, height: number): void {
    const name = `Im${(this.images += 1)}`;
    this.leaf.setXObject(PDFName.of(name), image);
    this.ops.push(`q ${n(width)} 0 0 ${n(height)} ${n(x)} ${n(y)} cm /${name} Do Q`);
  }

  drawLine(x1: number, y1: number, x2: number, y2: number, thickness: number, color: RGB): void {
    this.setStroke(color, thickness);
    this.ops.push(`${n(x1)} ${n(y1)} m ${n(x2)} ${n(y2)} l S`);
  }

  private setStroke(c: RGB, width: number): void {
    const value = colour(c);
    if (value !== this.stroke) {
      this.ops.push(`${value} RG`);
      this.stroke = value;
    }
    if (width !== this.lineWidth) {
      this.ops.push(`${n(width)} w`);
      this.lineWidth = width;
    }
  }

  finish(): void {
    if (this.content) return;
    const { context } = this.canvas.doc;
    const stream = context.stream(deflateSync(latin1(this.ops.join('\n')), { chunkSize: DEFLATE_CHUNK }), {
      Filter: 'FlateDecode',
    });
    this.content = context.register(stream);
    this.leaf.addContentStream(this.content);
    this.ops.length = 0;
  }
}

export class Canvas {
  readonly regular: DocumentFont;
  readonly bold: DocumentFont;
  /** Pages not yet written out (the last one may still be drawn on). */
  private readonly pages: Page[] = [];
  private readonly output: PdfOutput;
  private readonly pagesRef: PDFRef;
  private pageCount = 0;

  constructor(
    readonly doc: PDFDocument,
    private readonly chunkPages = CHUNK_PAGES,
  ) {
    const { regular, bold } = loadFaces();
    this.regular = new DocumentFont(doc, regular);
    this.bold = new DocumentFont(doc, bold);
    this.output = new PdfOutput(doc.context);
    this.pagesRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
  }

  /** The one before it is finished and, every chunkPages pages, written out. */
  addPage([width, height]: [number, number]): Page {
    const last = this.pages[this.pages.length - 1];
    last?.finish();
    if (this.pages.length >= this.chunkPages) this.writePages();
    const { context } = this.doc;
    const leaf = PDFPageLeaf.withContextAndParent(context, this.pagesRef);
    leaf.set(PDFName.of('MediaBox'), context.obj([0, 0, width, height]));
    const ref = context.register(leaf);
    const tree = this.doc.catalog.Pages();
    tree.Kids().push(ref);
    this.pageCount += 1;
    tree.set(PDFName.of('Count'), PDFNumber.of(this.pageCount));
    const page = new Page(this, leaf, ref, width, height);
    this.pages.push(page);
    return page;
  }

  /** A PNG or JPEG (checked by the caller), embedded now: its reference and its size in pixels. */
  async embedImage(bytes: Uint8Array, type: 'image/png' | 'image/jpeg'): Promise<{ ref: PDFRef; width: number; height: number }> {
    const image = type === 'image/png' ? await this.doc.embedPng(bytes) : await this.doc.embedJpg(bytes);
    await image.embed();
    return { ref: image.ref, width: image.width, height: image.height };
  }

  private writePages(): void {
    this.output.write(this.pages.flatMap((page) => (page.content ? [page.ref, page.content] : [page.ref])));
    this.pages.length = 0;
  }

  /** The PDF's bytes: the last pages, the fonts (embedded now that every glyph is known), catalog, info, cross-reference. */
  async save(): Promise<Uint8Array> {
    for (const page of this.pages) page.finish();
    this.writePages();
    await this.regular.embed();
    await this.bold.embed();
    return this.output.finish();
  }
}

/** Without `date`, pdf-lib stamps the current time, and a closed manifest's document would differ at every download. */
export async function newCanvas(title: string, date?: Date, chunkPages?: number): Promise<Canvas> {
  const doc = await PDFDocument.create();
  if (date) {
    doc.setCreationDate(date);
    doc.setModificationDate(date);
  }
  doc.setTitle(cleanText(title));
  doc.setProducer('Carrier shipping service');
  doc.setCreator('Carrier shipping service');
  return new Canvas(doc, chunkPages);
}

export interface TextOptions {
  x: number;
  y: number;
  size: number;
  font: PDFFont;
  maxWidth?: number;
  /** First drawn smaller, down to this size, to fit maxWidth. */
  minSize?: number;
  align?: 'left' | 'right' | 'center';
  color?: RGB;
}

/** One line, cleaned and fitted: shortened in logical order, measured as drawn, then put in visual order. */
export function text(page: Page, value: string | undefined, options: TextOptions): string {
  const { font } = options;
  const clean = cleanText(value);
  if (clean === '') return '';
  const size =
    options.maxWidth === undefined || options.minSize === undefined
      ? options.size
      : shrinkToFit(font.widthOfTextAtSize(visualOrder(clean), options.size), options.size, options.maxWidth, options.minSize);
  const fitted =
    options.maxWidth === undefined
      ? clean
      : fitText(clean, options.maxWidth, (s) => font.widthOfTextAtSize(visualOrder(s), size));
  if (fitted === '') return '';
  const drawn = visualOrder(fitted);
  let x = options.x;
  if (options.align === 'right') x -= font.widthOfTextAtSize(drawn, size);
  else if (options.align === 'center') x -= font.widthOfTextAtSize(drawn, size) / 2;
  page.drawText(drawn, x, page.getHeight() - options.y, size, font, options.color ?? BLACK);
  return drawn;
}

export function line(page: Page, x1: number, y1: number, x2: number, y2: number, thickness = 0.75, color = BLACK): void {
  const h = page.getHeight();
  page.drawLine(x1, h - y1, x2, h - y2, thickness, color);
}

export function box(
  page: Page,
  x: number,
  y: number,
  width: number,
  height: number,
  options: { fill?: RGB; border?: number } = {},
): void {
  page.drawRect(x, page.getHeight() - y - height, width, height, options);
}

/** A Code 128 barcode as vector bars, module as wide as fits; returns the width used, 0 if it cannot be encoded. */
export function barcode(
  page: Page,
  canvas: Canvas,
  value: string | undefined,
  box: { x: number; y: number; maxWidth: number; height: number; caption?: string; captionSize?: number; minModule?: number },
): number {
  if (!encodable(value)) return 0;
  const symbol = code128(value);
  const moduleWidth = Math.max(box.minModule ?? 0.75, Math.min(3, box.maxWidth / symbol.modules));
  const width = symbol.modules * moduleWidth;
  const top = page.getHeight() - box.y - box.height;
  page.drawBars(symbol.bars.map((bar) => [box.x + bar.x * moduleWidth, top, bar.width * moduleWidth, box.height]));
  if (box.caption !== undefined) {
    const size = box.captionSize ?? 9;
    text(page, box.caption, {
      x: box.x + width / 2,
      y: box.y + box.height + size + 2,
      size,
      font: canvas.bold,
      align: 'center',
      maxWidth: Math.max(width, box.maxWidth),
    });
  }
  return width;
}

const STAMP_RED = rgb(0.85, 0.1, 0.1);

/** CANCELLED across the page, large and red, under nothing that hides it. */
export function cancelledStamp(page: Page, canvas: Canvas, options: { horizontal?: boolean } = {}): void {
  if (options.horizontal) {
    // A label is read by scanners too: one straight band across its middle, clear of the barcode's quiet zone.
    const size = page.getWidth() / 7;
    const width = canvas.bold.widthOfTextAtSize('CANCELLED', size);
    page.drawText('CANCELLED', (page.getWidth() - width) / 2, page.getHeight() * 0.62, size, canvas.bold, STAMP_RED, {
      opacity: 0.7,
    });
    return;
  }
  const size = Math.min(page.getWidth(), page.getHeight()) / 6;
  const word = 'CANCELLED';
  const width = canvas.bold.widthOfTextAtSize(word, size);
  const angle = Math.atan2(page.getHeight(), page.getWidth());
  const cx = page.getWidth() / 2;
  const cy = page.getHeight() / 2;
  const x = cx - (Math.cos(angle) * width) / 2 + (Math.sin(angle) * size) / 3;
  const y = cy - (Math.sin(angle) * width) / 2 - (Math.cos(angle) * size) / 3;
  page.drawText(word, x, y, size, canvas.bold, STAMP_RED, { rotate: angle, opacity: 0.55 });
}
