// Ids in a path (webhook endpoints, deliveries, manifests, tokens) are short printable text: every
// id this service hands out is under 80 ASCII characters. A segment that cannot be one — a malformed
// escape, NUL or another control character, a lone surrogate, thousands of characters — names
// nothing, so it is answered as "not found" before any query: PostgreSQL refuses NUL in text, and
// nothing should reach it that it will refuse.

/** Longer than any id we issue, short enough that no lookup or log line grows with it. */
export const MAX_PATH_PARAM_LENGTH = 128;

// C0 controls, DEL and the C1 controls.
// eslint-disable-next-line no-control-regex -- the point is to find them
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** True when a decoded path parameter could be an id: 1–128 characters, well-formed, no control characters. */
export function isPlausiblePathParam(value: string): boolean {
  return value.length > 0 && value.length <= MAX_PATH_PARAM_LENGTH && value.isWellFormed() && !CONTROL.test(value);
}

/**
 * A raw (still percent-encoded) path segment decoded, or undefined when it is malformed
 * (`%ZZ`, a cut-off escape, bytes that are no UTF-8) or decodes to something no id can be.
 */
export function decodePathParam(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return isPlausiblePathParam(decoded) ? decoded : undefined;
}
