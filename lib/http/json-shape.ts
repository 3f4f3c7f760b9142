import { AppError } from '@/lib/errors/app-error';

// Some JSON costs far more to parse than its bytes (2.5 million nested `[` take seconds), so a large body past these caps,
// which no request we accept comes near, is refused in one pass before JSON.parse (RFC 8259 §9 allows such limits).

export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_CONTAINERS = 100_000;
// Far above every schema's array maximum (a 422 naming the field); it only keeps JSON.parse from building millions of values.
export const MAX_JSON_VALUES = 1_000_000;
export const MAX_JSON_OBJECT_MEMBERS = 1_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

const SCAN_FROM_BYTES = 32 * 1024;

export function assertJsonShape(text: string): void {
  if (text.length < SCAN_FROM_BYTES) return;
  let depth = 0;
  let containers = 0;
  let values = 0;
  const isObject = new Uint8Array(MAX_JSON_DEPTH + 2);
  const commas = new Int32Array(MAX_JSON_DEPTH + 2);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      // Unterminated: JSON.parse will say so.
      if (end === -1) return;
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH)
        throw new AppError('invalid_json', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
      isObject[depth] = c === OPEN_BRACE ? 1 : 0;
      commas[depth] = 0;
      if (++containers > MAX_JSON_CONTAINERS) {
        throw new AppError(
          'invalid_json',
          `The request body holds more than ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays.`,
        );
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth > 0) depth--;
    } else if (c === COMMA) {
      if (++values > MAX_JSON_VALUES)
        throw new AppError('invalid_json', `The request body holds more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values.`);
      // depth ≤ MAX_JSON_DEPTH, inside the arrays: the ?? only satisfies the index type.
      const members = isObject[depth] === 1 ? (commas[depth] = (commas[depth] ?? 0) + 1) : 0;
      if (members >= MAX_JSON_OBJECT_MEMBERS) {
        throw new AppError(
          'invalid_json',
          `An object in the request body has more than ${MAX_JSON_OBJECT_MEMBERS.toLocaleString('en-US')} members.`,
        );
      }
    }
  }
}

function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}
