import { AppError } from '@/lib/errors/app-error';

// JSON.parse builds whatever a body describes, and some descriptions cost far more than their bytes:
// 2.5 million nested `[` in a 5 MB body take seconds to parse, a million `{}` a gigabyte-sized heap
// churn. No request the service accepts nests deeper than 6 levels or holds more than ~5,000 objects
// and arrays (a container manifest of 5,000 declared packages), so a body past these limits is refused
// before it is parsed: one pass over its characters, no allocation. RFC 8259 §9 lets a parser set
// such limits.

/** Deeper than any request we accept (4–6 levels), with room for clients' wrappers. */
export const MAX_JSON_DEPTH = 64;
/**
 * Objects and arrays in one body: a manifest of 5,000 packages has 5,002, and three more for each customs declaration
 * and one per declared item (under 65,000 however they are declared, since 5 MB holds at most about 50,000 items).
 */
export const MAX_JSON_CONTAINERS = 100_000;
/**
 * Members and elements in one body (counted by their commas): a manifest of 5,000 packages has
 * under 200,000. Far above every schema's own array maximum, which answers 422 naming the field;
 * this only keeps JSON.parse from building millions of values first (2.5 million numbers fit in 5 MB).
 */
export const MAX_JSON_VALUES = 1_000_000;
/**
 * Members of one object: the widest we accept has about 40. An object of 450,000 keys fits in 5 MB
 * and costs 1 s and ~80 MB to parse.
 */
export const MAX_JSON_OBJECT_MEMBERS = 1_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** Below this size no shape costs much to parse (16,000 levels parse in milliseconds): not scanned. */
const SCAN_FROM_BYTES = 32 * 1024;

/** 400 invalid_json when the body nests too deep, holds too many objects and arrays or values, or an object too many members. */
export function assertJsonShape(text: string): void {
  if (text.length < SCAN_FROM_BYTES) return;
  let depth = 0;
  let containers = 0;
  let values = 0;
  // Per open container: whether it is an object, and its commas so far.
  const isObject = new Uint8Array(MAX_JSON_DEPTH + 2);
  const commas = new Int32Array(MAX_JSON_DEPTH + 2);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string (brackets in it are text) with the native search for its closing quote.
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

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}
