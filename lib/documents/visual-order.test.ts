import { describe, expect, it } from 'vitest';
import { fitText } from './text';
import { shapeArabic, visualOrder } from './visual-order';

// What a line becomes before it is drawn left to right: exact code points, so that a reversed digit, a
// wrong contextual form or a bracket not mirrored fails here and not on a dock.

const cps = (...points: number[]) => String.fromCodePoint(...points);

describe('visualOrder: Hebrew', () => {
  it('reverses a Hebrew word and the words of a Hebrew line', () => {
    expect(visualOrder('שלום')).toBe('םולש');
    expect(visualOrder('שלום עולם')).toBe('םלוע םולש');
  });

  it('keeps digits left to right inside a right-to-left line', () => {
    expect(visualOrder('רחוב הרצל 12')).toBe('12 לצרה בוחר');
    expect(visualOrder('דירה 123')).toBe('123 הריד');
    expect(visualOrder('12 רחוב')).toBe('בוחר 12');
    expect(visualOrder('רחוב הרצל 12, דירה 4')).toBe('4 הריד ,12 לצרה בוחר');
  });

  it('places a Hebrew name among Latin words and numbers by the paragraph direction of the first strong letter', () => {
    expect(visualOrder('Ann שלום')).toBe('Ann םולש');
    expect(visualOrder('Ann שלום 42')).toBe('Ann 42 םולש'); // the number follows the right-to-left run (UAX #9 W7, I1)
    expect(visualOrder('שלום Ann 42')).toBe('Ann 42 םולש');
  });

  it('mirrors parentheses in a right-to-left run', () => {
    expect(visualOrder('דוד (מחסן)')).toBe('(ןסחמ) דוד');
    expect(visualOrder('דוד כהן (מחסן 3)')).toBe('(3 ןסחמ) ןהכ דוד');
  });

  it('keeps points and marks after their letter', () => {
    expect(visualOrder('שָׁלוֹם')).toBe('\u05dd\u05d5\u05b9\u05dc\u05e9\u05b8\u05c1');
  });
});

describe('visualOrder: Arabic', () => {
  it('shapes each letter to its contextual presentation form, in logical order', () => {
    // م initial, ر final, ح initial (reh does not join forward), ب medial, ا final
    expect(shapeArabic('مرحبا')).toBe(cps(0xfee3, 0xfeae, 0xfea3, 0xfe92, 0xfe8e));
    expect(visualOrder('مرحبا')).toBe(cps(0xfe8e, 0xfe92, 0xfea3, 0xfeae, 0xfee3));
    // one letter alone: isolated
    expect(visualOrder('ب')).toBe(cps(0xfe8f));
  });

  it('writes lam + alef as one ligature, isolated or final', () => {
    expect(visualOrder('لا')).toBe(cps(0xfefb));
    expect(visualOrder('سلام')).toBe(cps(0xfee1, 0xfefc, 0xfeb3)); // seen initial, lam-alef final, meem isolated
    expect(visualOrder('لأن')).toBe(cps(0xfee5, 0xfef7)); // lam-alef with hamza isolated; noon after an alef is isolated
    expect(visualOrder('السلام')).toBe(cps(0xfee1, 0xfefc, 0xfeb4, 0xfedf, 0xfe8d));
    expect(visualOrder('لَا')).toBe(cps(0xfefb, 0x064e)); // a mark between lam and alef follows the ligature
  });

  it('an Arabic street with a house number: number left to right, at the end a reader reaches last', () => {
    expect(visualOrder('شارع الملك فهد 123')).toBe(
      `123 ${cps(0xfeaa, 0xfeec, 0xfed3)} ${cps(0xfeda, 0xfee0, 0xfee4, 0xfedf, 0xfe8d)} ${cps(0xfec9, 0xfead, 0xfe8e, 0xfeb7)}`,
    );
    expect(visualOrder('١٢٣ شارع')).toBe(`${cps(0xfec9, 0xfead, 0xfe8e, 0xfeb7)} ١٢٣`); // Arabic-Indic digits too
  });

  it('decides joining before removing ZWNJ and ZWJ, which have no glyph', () => {
    expect(visualOrder('ب\u200cب')).toBe(cps(0xfe8f, 0xfe8f)); // non-joiner: two isolated behs
    expect(visualOrder('\u200dب\u200d')).toBe(cps(0xfe92)); // joiners on both sides: medial
  });
});

describe('visualOrder: everything else', () => {
  it('returns Latin-only text and emoji as they are', () => {
    for (const value of ['9400 Wilshire Blvd (Suite 5)', 'Zürich Łódź Αθήνα Москва', '🚚📦 👨‍👩‍👧 🇮🇱', 'a\u200db', '']) {
      expect(visualOrder(value)).toBe(value);
    }
  });

  it('moves an emoji as one character in a right-to-left line', () => {
    expect(visualOrder('🚚 שלום')).toBe('םולש 🚚');
    expect(visualOrder('שלום 🇮🇱')).toBe('🇮🇱 םולש');
    // a modifier stays on its emoji and a ZWJ family in its order (the joiners, which no glyph draws, go)
    expect(visualOrder('שלום 👍🏽 👨‍👩‍👧')).toBe('👨👩👧 👍🏽 םולש');
    expect(visualOrder('ب\u200dب')).toBe(cps(0xfe90, 0xfe91)); // a ZWJ between letters joins them and holds nothing together
  });

  it('puts an ellipsis added at the logical end where the reader ends', () => {
    expect(visualOrder('שלום עולם…')).toBe('…םלוע םולש');
    expect(visualOrder('Ann שלום…')).toBe('Ann םולש…');
    const fitted = fitText('שלום עולם ומלואו', 10, (s) => Array.from(visualOrder(s)).length);
    expect(fitted).toBe('שלום עולם…');
    expect(visualOrder(fitted)).toBe('…םלוע םולש');
  });

  it('obeys and then removes explicit bidi controls', () => {
    expect(visualOrder('abc\u202edef\u202c')).toBe('abcfed');
    expect(visualOrder('\u200fabc')).toBe('abc');
  });

  it('does not throw on NUL, controls or lone surrogates', () => {
    expect(visualOrder('שלום\u0000x')).toBe('x\u0000םולש');
    expect(visualOrder('ש\ud800')).toBe('\ud800ש');
    expect(visualOrder('\udfffش')).toBe(`${cps(0xfeb5)}\udfff`);
    expect(shapeArabic('\ud800ل\udc00')).toBe(`\ud800${cps(0xfedd)}\udc00`);
    const long = 'שלום مرحبا \u0000\ud800 '.repeat(500);
    expect(Array.from(visualOrder(long)).length).toBeGreaterThan(5000);
  });
});
