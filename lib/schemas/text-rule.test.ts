import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { storableString, textRuleViolation } from './text-rule';

describe('the text rule', () => {
  it.each([
    ['NUL', 'a\u0000b', 'must not contain control characters (found NUL at position 1)'],
    ['C0 U+0001', '\u0001', 'must not contain control characters (found U+0001 at position 0)'],
    ['C0 U+001F', 'x\u001F', 'must not contain control characters (found U+001F at position 1)'],
    ['ESC', '\u001B[31mred', 'must not contain control characters (found U+001B at position 0)'],
    ['vertical tab', 'a\u000Bb', 'must not contain control characters (found U+000B at position 1)'],
    ['DEL', 'a\u007F', 'must not contain control characters (found U+007F at position 1)'],
    ['C1 U+0080', '\u0080', 'must not contain control characters (found U+0080 at position 0)'],
    ['C1 U+009F', 'ab\u009F', 'must not contain control characters (found U+009F at position 2)'],
    ['lone high surrogate', 'a\ud800b', 'must be valid Unicode text (it contains an unpaired surrogate)'],
    ['lone low surrogate', 'a\udc00', 'must be valid Unicode text (it contains an unpaired surrogate)'],
    ['reversed pair', '\udc00\ud800', 'must be valid Unicode text (it contains an unpaired surrogate)'],
  ])('refuses %s', (_name, value, message) => {
    expect(textRuleViolation(value)).toBe(message);
    expect(textRuleViolation(value, { multiline: true })).toBe(message);
  });

  it.each(['\t', '\n', '\r'])('refuses %j on one line and allows it where a field holds lines', (ch) => {
    expect(textRuleViolation(`a${ch}b`)).toMatch(/^must not contain control characters/);
    expect(textRuleViolation(`a${ch}b`, { multiline: true })).toBeUndefined();
  });

  it.each([
    ['plain text', 'Acme Parcels'],
    ['accents', 'Société Générale'],
    ['an emoji (a surrogate pair)', 'box 📦'],
    ['no-break space U+00A0', 'a\u00A0b'],
    ['right-to-left text and marks', 'שלום \u200F'],
    ['zero-width joiner', 'a\u200Db'],
    ['empty', ''],
  ])('accepts %s', (_name, value) => {
    expect(textRuleViolation(value)).toBeUndefined();
  });

  it('stops a z.string field at the first violation, one message per field', () => {
    const schema = z.object({ name: storableString().trim().min(5, 'too short') });
    const result = schema.safeParse({ name: '\u0000' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['must not contain control characters (found NUL at position 0)']);
    expect(schema.safeParse({ name: 'Acme Parcels' }).success).toBe(true);
  });
});
