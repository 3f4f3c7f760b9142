import fontkit from '@pdf-lib/fontkit';
import { degrees, PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { code128, encodable } from './barcode';
import { fontFiles } from './fonts';
import { cleanText, fitText } from './text';

// Drawing helpers shared by the handover manifest, tags and labels. Coordinates are PDF points
// from the top-left of the page (converted here), which reads like the layout it draws.

export const INCH = 72;
export const BLACK = rgb(0, 0, 0);
export const GREY = rgb(0.35, 0.35, 0.35);
export const LIGHT = rgb(0.9, 0.9, 0.9);

// fontkit parses a 700 kB TTF in tens of milliseconds; the parsed fonts are kept and handed to
// every document (pdf-lib only reads them, and subsets into a new object per document).
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
const parsed = new Map<Uint8Array, ReturnType<Fontkit['create']>>();
const cachingFontkit: Fontkit = {
  create(buffer, postscriptName) {
    const key = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
    let font = parsed.get(key);
    if (!font) {
      font = fontkit.create(key, postscriptName);
      parsed.set(key, font);
    }
    return font;
  },
};

export interface Canvas {
  doc: PDFDocument;
  regular: PDFFont;
  bold: PDFFont;
}

const PLAIN = { liga: false, clig: false, calt: false, kern: false, rlig: false, dlig: false, hlig: false };

/**
 * Remembers each string's encoding and width within one document: a manifest repeats "2.5 lb",
 * "10 × 8 × 6" and its cities thousands of times, and each layout costs ~50 µs.
 */
function memoise(font: PDFFont): PDFFont {
  const encodings = new Map<string, ReturnType<PDFFont['encodeText']>>();
  const widths = new Map<string, number>();
  const encode = font.encodeText.bind(font);
  const width = font.widthOfTextAtSize.bind(font);
  font.encodeText = (value) => {
    let encoded = encodings.get(value);
    if (!encoded) {
      encoded = encode(value);
      if (encodings.size < 20_000) encodings.set(value, encoded);
    }
    return encoded;
  };
  font.widthOfTextAtSize = (value, size) => {
    let w = widths.get(value);
    if (w === undefined) {
      w = width(value, 1000);
      if (widths.size < 20_000) widths.set(value, w);
    }
    return (w * size) / 1000;
  };
  return font;
}

export async function newCanvas(title: string): Promise<Canvas> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(cachingFontkit);
  const files = fontFiles();
  // Without the optional OpenType features (ligatures, kerning, contextual forms) fontkit's layout
  // is several times faster; a manifest draws ~30,000 strings. Text is drawn in stored order (no bidi).
  const regular = memoise(await doc.embedFont(files.regular, { subset: true, features: PLAIN }));
  const bold = memoise(await doc.embedFont(files.bold, { subset: true, features: PLAIN }));
  doc.setTitle(cleanText(title));
  doc.setProducer('Carrier shipping service');
  doc.setCreator('Carrier shipping service');
  return { doc, regular, bold };
}

export interface TextOptions {
  x: number;
  /** Baseline, from the top of the page. */
  y: number;
  size: number;
  font: PDFFont;
  /** Shortened with an ellipsis to this width. */
  maxWidth?: number;
  align?: 'left' | 'right' | 'center';
  color?: ReturnType<typeof rgb>;
}

/** Draws one line of text, cleaned and fitted; returns what it drew. */
export function text(page: PDFPage, value: string | undefined, options: TextOptions): string {
  const { font, size } = options;
  const clean = cleanText(value);
  if (clean === '') return '';
  const measure = (s: string) => font.widthOfTextAtSize(s, size);
  // No glyph of DejaVu Sans is wider than 1.6 em (most are ~0.6): short text skips the measuring.
  const surelyFits = options.maxWidth === undefined || clean.length * size * 1.6 <= options.maxWidth;
  const fitted = surelyFits ? clean : fitText(clean, options.maxWidth ?? Infinity, measure);
  if (fitted === '') return '';
  let x = options.x;
  if (options.align === 'right') x -= measure(fitted);
  else if (options.align === 'center') x -= measure(fitted) / 2;
  page.drawText(fitted, { x, y: page.getHeight() - options.y, size, font, color: options.color ?? BLACK });
  return fitted;
}

export function line(page: PDFPage, x1: number, y1: number, x2: number, y2: number, thickness = 0.75, color = BLACK): void {
  const h = page.getHeight();
  page.drawLine({ start: { x: x1, y: h - y1 }, end: { x: x2, y: h - y2 }, thickness, color });
}

export function box(page: PDFPage, x: number, y: number, width: number, height: number, options: { fill?: ReturnType<typeof rgb>; border?: number } = {}): void {
  page.drawRectangle({
    x,
    y: page.getHeight() - y - height,
    width,
    height,
    ...(options.fill ? { color: options.fill } : {}),
    ...(options.border ? { borderWidth: options.border, borderColor: BLACK } : {}),
  });
}

/**
 * A Code 128 barcode of `value` in the box (x, y, maxWidth, height), bars as filled rectangles
 * (vector, crisp at any zoom), with the human-readable `caption` under it. The module is as wide as
 * fits, at least `minModule` points; returns the width used, 0 when the value cannot be encoded.
 */
export function barcode(
  page: PDFPage,
  canvas: Canvas,
  value: string | undefined,
  box: { x: number; y: number; maxWidth: number; height: number; caption?: string; captionSize?: number; minModule?: number },
): number {
  if (!encodable(value)) return 0;
  const symbol = code128(value);
  const moduleWidth = Math.max(box.minModule ?? 0.75, Math.min(3, box.maxWidth / symbol.modules));
  const width = symbol.modules * moduleWidth;
  const top = page.getHeight() - box.y - box.height;
  for (const bar of symbol.bars) {
    page.drawRectangle({ x: box.x + bar.x * moduleWidth, y: top, width: bar.width * moduleWidth, height: box.height, color: BLACK });
  }
  if (box.caption !== undefined) {
    const size = box.captionSize ?? 9;
    text(page, box.caption, { x: box.x + width / 2, y: box.y + box.height + size + 2, size, font: canvas.bold, align: 'center', maxWidth: Math.max(width, box.maxWidth) });
  }
  return width;
}

/** CANCELLED across the page, large and red, under nothing that hides it. */
export function cancelledStamp(page: PDFPage, canvas: Canvas, options: { horizontal?: boolean } = {}): void {
  if (options.horizontal) {
    // A label is read by scanners too: one straight band across its middle, clear of the barcode's quiet zone.
    const size = page.getWidth() / 7;
    const width = canvas.bold.widthOfTextAtSize('CANCELLED', size);
    page.drawText('CANCELLED', { x: (page.getWidth() - width) / 2, y: page.getHeight() * 0.62, size, font: canvas.bold, color: rgb(0.85, 0.1, 0.1), opacity: 0.7 });
    return;
  }
  const size = Math.min(page.getWidth(), page.getHeight()) / 6;
  const word = 'CANCELLED';
  const width = canvas.bold.widthOfTextAtSize(word, size);
  const angle = Math.atan2(page.getHeight(), page.getWidth());
  const cx = page.getWidth() / 2;
  const cy = page.getHeight() / 2;
  page.drawText(word, {
    x: cx - (Math.cos(angle) * width) / 2 + (Math.sin(angle) * size) / 3,
    y: cy - (Math.sin(angle) * width) / 2 - (Math.cos(angle) * size) / 3,
    size,
    font: canvas.bold,
    color: rgb(0.85, 0.1, 0.1),
    opacity: 0.55,
    rotate: degrees((angle * 180) / Math.PI),
  });
}
