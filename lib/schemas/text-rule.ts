import { z } from 'zod';

// The one text rule for every request field: nothing PostgreSQL refuses (NUL, unpaired UTF-16
// surrogates) and no control character a screen, a CSV export or a log line would misread.
// Tab, CR and LF are allowed only in fields that hold several lines (a shipment description).

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, less tab, LF and CR. */
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export interface TextRuleOptions {
  /** Allow tab, line feed and carriage return. */
  multiline?: boolean;
}

/**
 * Anything either rule could refuse: a control character or a UTF-16 surrogate that is not half of
 * a pair (in a `u` pattern a proper pair is one code point, so only a lone half matches). One test
 * per string on the hot path; the reason is worked out only for a string that fails it.
 */
const SUSPECT = /[\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]/u;

/** Why `value` may not be stored, or undefined when it may. */
export function textRuleViolation(value: string, options: TextRuleOptions = {}): string | undefined {
  if (!SUSPECT.test(value)) return undefined;
  const match = (options.multiline ? CONTROL_MULTILINE : CONTROL).exec(value);
  if (match) {
    const code = match[0].charCodeAt(0);
    const name = code === 0 ? 'NUL' : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return `must not contain control characters (found ${name} at position ${match.index})`;
  }
  if (!value.isWellFormed()) return 'must be valid Unicode text (it contains an unpaired surrogate)';
  return undefined;
}

/**
 * A Zod string that obeys the text rule, for schemas built from z.string() (the portal's forms).
 * The first violation stops the field's other checks, so each field gets one message.
 */
export function storableString(options: TextRuleOptions = {}) {
  return z.string().superRefine((value, ctx) => {
    const violation = textRuleViolation(value, options);
    if (violation) ctx.addIssue({ code: 'custom', message: violation, continue: false });
  });
}
