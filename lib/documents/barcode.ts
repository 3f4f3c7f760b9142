import bwipjs from 'bwip-js/node';

/** A Code 128 symbol as bars in module units (bwip-js encodes it; we only draw its bars). */
export interface Barcode {
  /** Width in modules, quiet zones included. */
  modules: number;
  bars: { x: number; width: number }[];
}

const QUIET = 10;
const PATH = /<path stroke="#000000" stroke-width="([\d.]+)" d="([^"]*)"/g;
const SEGMENT = /M([\d.]+) /g;

/**
 * Encodes `text` as Code 128 with bwip-js and reads the bars back from its SVG: at scale 1 each
 * bar is a vertical stroke whose width is its module count, centred on its x.
 */
export function code128(text: string): Barcode {
  const svg = bwipjs.toSVG({ bcid: 'code128', text, scale: 1, height: 1, includetext: false, parsefnc: false });
  const viewBox = /viewBox="0 0 ([\d.]+) /.exec(svg);
  const width = Number(viewBox?.[1] ?? 0);
  const bars: Barcode['bars'] = [];
  for (const path of svg.matchAll(PATH)) {
    const strokeWidth = Number(path[1]);
    for (const segment of (path[2] ?? '').matchAll(SEGMENT)) {
      bars.push({ x: Number(segment[1]) - strokeWidth / 2 + QUIET, width: strokeWidth });
    }
  }
  bars.sort((a, b) => a.x - b.x);
  return { modules: width + 2 * QUIET, bars };
}

/** Text a Code 128 symbol can carry (printable ASCII); other characters make no barcode, only text. */
export function encodable(text: string | undefined): text is string {
  return typeof text === 'string' && text.length > 0 && text.length <= 80 && /^[\x20-\x7e]+$/.test(text);
}
