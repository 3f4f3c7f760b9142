import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { code128, encodable } from './barcode';
import { fontFiles } from './fonts';
import { LABEL_HEIGHT, LABEL_WIDTH, packageLabelLayout, type Element } from './layout';
import { layoutLeftToRight } from './pdf-font';
import { cleanText, fitText, shrinkToFit } from './text';
import type { DocumentLabel } from './types';
import { needsVisualLayout, visualOrder } from './visual-order';

// The PNG label: the same layout as an SVG, rasterised by resvg (WebAssembly, no native build) at
// 203 dpi with the same DejaVu fonts, measured with fontkit so that ellipses match the PDF's.

const DPI = 203;
let ready: Promise<void> | undefined;

function wasmPath(): string {
  const local = path.join(process.cwd(), 'node_modules', '@resvg', 'resvg-wasm', 'index_bg.wasm');
  if (existsSync(local)) return local;
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  return path.join(path.dirname(require.resolve('@resvg/resvg-wasm/package.json')), 'index_bg.wasm');
}

function init(): Promise<void> {
  ready ??= initWasm(readFileSync(wasmPath())).catch((error: unknown) => {
    // Initialised already (by another copy of this module in the same process): usable.
    if (error instanceof Error && /already/.test(error.message)) return;
    ready = undefined;
    throw error;
  });
  return ready;
}

interface Measurer {
  (text: string, size: number, bold: boolean): number;
}

let measurer: Measurer | undefined;
function measure(): Measurer {
  if (!measurer) {
    const files = fontFiles();
    const regular = fontkit.create(files.regular);
    const bold = fontkit.create(files.bold);
    measurer = (value, size, isBold) => {
      const font = isBold ? bold : regular;
      // resvg's default features (kerning on), left to right as drawn
      return (layoutLeftToRight(font, value, {}).advanceWidth / font.unitsPerEm) * size;
    };
  }
  return measurer;
}

/**
 * What XML 1.0 has no character for (controls, lone surrogates, U+FFFE and U+FFFF): the text rule lets the
 * noncharacters through, and resvg refused the whole SVG for one, a 500 for a stored package's label.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function escapeXml(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function elementSvg(el: Element): string {
  switch (el.kind) {
    case 'text': {
      const m = measure();
      const clean = cleanText(el.value);
      const bold = el.bold === true;
      const size =
        el.minSize === undefined ? el.size : shrinkToFit(m(visualOrder(clean), el.size, bold), el.size, el.maxWidth, el.minSize);
      const fitted = fitText(clean, el.maxWidth, (s) => m(visualOrder(s), size, bold));
      const drawn = visualOrder(fitted);
      const anchor = el.align === 'center' ? 'middle' : el.align === 'right' ? 'end' : 'start';
      // The text goes in already in visual order and shaped, as the PDF draws it. resvg would run the bidi
      // algorithm over it again (and reverse it back), and ignores unicode-bidi="bidi-override"; a
      // LEFT-TO-RIGHT OVERRIDE … POP DIRECTIONAL FORMATTING around the line makes it draw the glyphs as given.
      const content = needsVisualLayout(drawn) ? `\u202d${escapeXml(drawn)}\u202c` : escapeXml(drawn);
      return `<text x="${el.x}" y="${el.y}" font-size="${size}" font-family="DejaVu Sans" font-weight="${el.bold ? 'bold' : 'normal'}" text-anchor="${anchor}">${content}</text>`;
    }
    case 'barcode': {
      if (!encodable(el.value)) return '';
      const symbol = code128(el.value);
      // Whole device pixels per module, so that every bar has the same width at 203 dpi.
      const pxPerPt = DPI / 72;
      const modulePx = Math.max(1, Math.floor((el.maxWidth * pxPerPt) / symbol.modules));
      const moduleWidth = modulePx / pxPerPt;
      const left = el.x + (el.maxWidth - symbol.modules * moduleWidth) / 2;
      return symbol.bars
        .map(
          (bar) =>
            `<rect x="${(left + bar.x * moduleWidth).toFixed(3)}" y="${el.y}" width="${(bar.width * moduleWidth).toFixed(3)}" height="${el.height}"/>`,
        )
        .join('');
    }
    case 'rule':
      return `<rect x="${el.x}" y="${el.y - el.thickness / 2}" width="${el.width}" height="${el.thickness}"/>`;
    case 'stamp':
      return `<text x="${LABEL_WIDTH / 2}" y="${LABEL_HEIGHT / 2}" font-size="48" font-family="DejaVu Sans" font-weight="bold" text-anchor="middle" fill="#d91a1a" fill-opacity="0.55" transform="rotate(-56 ${LABEL_WIDTH / 2} ${LABEL_HEIGHT / 2})">${escapeXml(el.value)}</text>`;
  }
}

export function packageLabelSvg(label: DocumentLabel): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${LABEL_WIDTH}" height="${LABEL_HEIGHT}" viewBox="0 0 ${LABEL_WIDTH} ${LABEL_HEIGHT}" shape-rendering="crispEdges">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...packageLabelLayout(label).map(elementSvg),
    '</svg>',
  ].join('');
}

/** One 4×6 in package label as PNG, 812 × 1218 px (203 dpi). */
export async function renderPackageLabelPng(label: DocumentLabel): Promise<Uint8Array> {
  await init();
  const files = fontFiles();
  const resvg = new Resvg(packageLabelSvg(label), {
    fitTo: { mode: 'width', value: Math.round((LABEL_WIDTH * DPI) / 72) },
    font: { fontBuffers: [files.regular, files.bold], defaultFontFamily: 'DejaVu Sans', loadSystemFonts: false },
    background: '#ffffff',
  });
  const image = resvg.render();
  const png = image.asPng();
  image.free();
  resvg.free();
  return png;
}
