/** A Code 128 symbol as bars in module units (we only draw its bars). */
export interface Barcode {
  /** Width in modules, quiet zones included. */
  modules: number;
  bars: { x: number; width: number }[];
}

const QUIET = 10;

/**
 * Code 128's symbols as six bar and space widths in modules (bar first, 11 modules each), by value; 106 is the stop,
 * whose seventh element is its final bar (ISO/IEC 15417, table 1).
 */
const PATTERNS = `
212222 222122 222221 121223 121322 131222 122213 122312 132212 221213
221312 231212 112232 122132 122231 113222 123122 123221 223211 221132
221231 213212 223112 312131 311222 321122 321221 312212 322112 322211
212123 212321 232121 111323 131123 131321 112313 132113 132311 211313
231113 231311 112133 112331 132131 113123 113321 133121 313121 211331
231131 213113 213311 213131 311123 311321 331121 312113 312311 332111
314111 221411 431111 111224 111422 121124 121421 141122 141221 112214
112412 122114 122411 142112 142211 241211 221114 413111 241112 134111
111242 121142 121241 114212 124112 124211 411212 421112 421211 212141
214121 412121 111143 111341 131141 114113 114311 411113 411311 113141
114131 311141 411131 211412 211214 211232 2331112`
  .trim()
  .split(/\s+/)
  .map((pattern) => [...pattern].map(Number));

const START_B = 104;
const START_C = 105;
const CODE_B = 100;
const CODE_C = 99;
const STOP = 106;

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * The shortest run of symbol values for printable ASCII (see `encodable`), in code sets B (every character) and C
 * (two digits a symbol), with the start, the switches between them and the check symbol. The fewest symbols is found
 * backwards: costB[i] and costC[i] are the fewest for text[i..] with set B or C current at i.
 */
export function code128Values(text: string): number[] {
  const n = text.length;
  const digit = (i: number) => isDigit(text.charCodeAt(i));
  const pairAt = (i: number) => i + 1 < n && digit(i) && digit(i + 1);
  const costB = new Array<number>(n + 1).fill(0);
  const costC = new Array<number>(n + 1).fill(0);
  // The symbols for text[i..] if the character (set B) or the pair of digits (set C) at i is taken in the same set.
  const stay = (i: number) => ({
    b: 1 + (costB[i + 1] ?? 0),
    c: pairAt(i) ? 1 + (costC[i + 2] ?? 0) : Infinity,
  });
  for (let i = n - 1; i >= 0; i -= 1) {
    const { b, c } = stay(i);
    costB[i] = Math.min(b, 1 + c);
    costC[i] = Math.min(c, 1 + b);
  }
  // Set C first on a tie, as bwip-js (BWIPP) does: the same width, and the same bars as before for such text.
  let inC = (costC[0] ?? 0) <= (costB[0] ?? 0);
  const values = [inC ? START_C : START_B];
  for (let i = 0; i < n;) {
    const { b, c } = stay(i);
    // A switch only where it makes the symbol shorter.
    if (inC ? 1 + b < c : 1 + c < b) {
      inC = !inC;
      values.push(inC ? CODE_C : CODE_B);
    }
    if (inC) {
      values.push((text.charCodeAt(i) - 48) * 10 + (text.charCodeAt(i + 1) - 48));
      i += 2;
    } else {
      values.push(text.charCodeAt(i) - 32);
      i += 1;
    }
  }
  const check = values.reduce((sum, value, position) => sum + value * Math.max(position, 1), 0) % 103;
  values.push(check, STOP);
  return values;
}

/**
 * Encodes `text` (printable ASCII, see `encodable`) as Code 128: the shortest symbol in code sets B and C, drawn as
 * bars between quiet zones of 10 modules. Written here rather than taken from bwip-js, whose general barcode engine
 * spent a fifth of a 5,000-label PDF's time on one symbol each; the test holds it to bwip-js's decoding and widths.
 */
export function code128(text: string): Barcode {
  const bars: Barcode['bars'] = [];
  let x = QUIET;
  for (const value of code128Values(text)) {
    const pattern = PATTERNS[value];
    if (!pattern) throw new Error(`no Code 128 symbol has the value ${value}`);
    pattern.forEach((width, i) => {
      if (i % 2 === 0) bars.push({ x, width });
      x += width;
    });
  }
  return { modules: x + QUIET, bars };
}

/** Text a Code 128 symbol can carry (printable ASCII); other characters make no barcode, only text. */
export function encodable(text: string | undefined): text is string {
  return typeof text === 'string' && text.length > 0 && text.length <= 80 && /^[\x20-\x7e]+$/.test(text);
}
