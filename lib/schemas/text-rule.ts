import { z } from 'zod';

// The one text rule for every request field: nothing PostgreSQL refuses (NUL, lone surrogates) and no control
// character a screen, a CSV or a log line would misread. Tab, CR and LF only in multi-line fields.

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export interface TextRuleOptions {
  multiline?: boolean;
}

/** Anything either rule could refuse (in a `u` pattern only a lone surrogate matches): one test per string. */
const SUSPECT = /[\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]/u;

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

/** For schemas built from z.string(): the first violation stops the field's other checks. */
export function storableString(options: TextRuleOptions = {}) {
  return z.string().superRefine((value, ctx) => {
    const violation = textRuleViolation(value, options);
    if (violation) ctx.addIssue({ code: 'custom', message: violation, continue: false });
  });
}
