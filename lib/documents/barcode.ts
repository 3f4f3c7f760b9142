import bwipjs from 'bwip-js/node';

/** A Code 128 symbol as bars in module units (bwip-js encodes it; we only draw its bars). */
export interface Barcode {
  /** Width in modules, quiet zones included. */
  modules: number;
  bars: { x: number; width: number }[];
}

const QUIET = 10;

/**
 * Encodes `text` as Code 128 with bwip-js and takes its bar pattern as it is: `raw` returns the
 * symbol's space-bar sequence (`sbs`: widths in modules, bar first, alternating with spaces). It is
 * the encoding bwip-js's own renderers draw, without their rendering (toSVG cost ~10 ms a symbol).
 */
export function code128(text: string): Barcode {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text, parsefnc: false }) as { sbs?: number[] }[];
  const sbs = symbol?.sbs ?? [];
  const bars: Barcode['bars'] = [];
  let x = QUIET;
  sbs.forEach((width, i) => {
    if (i % 2 === 0 && width > 0) bars.push({ x, width });
    x += width;
  });
  return { modules: x + QUIET, bars };
}

/** Text a Code 128 symbol can carry (printable ASCII); other characters make no barcode, only text. */
export function encodable(text: string | undefined): text is string {
  return typeof text === 'string' && text.length > 0 && text.length <= 80 && /^[\x20-\x7e]+$/.test(text);
}
