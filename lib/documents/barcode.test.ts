import bwipjs from 'bwip-js/node';
import { describe, expect, it } from 'vitest';
import { code128, code128Values, type Barcode } from './barcode';

// Our Code 128 encoder against bwip-js (BWIPP), the encoder the labels used before: the same bars wherever both
// choose the same code sets, never a wider symbol, and every symbol reads back as its text.

function bwip(text: string): Barcode {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text, parsefnc: false }) as { sbs?: number[] }[];
  const bars: Barcode['bars'] = [];
  let x = 10;
  (symbol?.sbs ?? []).forEach((width, i) => {
    if (i % 2 === 0 && width > 0) bars.push({ x, width });
    x += width;
  });
  return { modules: x + 10, bars };
}

/** The text a run of symbol values carries (code sets B and C), its start, switches and check verified. */
function decode(values: number[]): string {
  const [start = -1, ...rest] = values;
  const stop = rest.pop();
  const check = rest.pop();
  expect(stop).toBe(106);
  expect(check).toBe([start, ...rest].reduce((sum, value, position) => sum + value * Math.max(position, 1), 0) % 103);
  let set = start === 105 ? 'C' : start === 104 ? 'B' : 'other';
  let text = '';
  for (const value of rest) {
    // In set B, 99 is "Code C"; in set C it is the digits 99 and 100 is "Code B".
    if (set === 'B' && value === 99) set = 'C';
    else if (set === 'C' && value === 100) set = 'B';
    else if (set === 'C' && value < 100) text += String(value).padStart(2, '0');
    else if (set === 'B' && value < 95) text += String.fromCharCode(value + 32);
    else throw new Error(`value ${value} in set ${set}`);
  }
  return text;
}

/** A fixed sequence of pseudo-random numbers (mulberry32), so a failure names a text that fails again. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

function texts(count: number, alphabet: string, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 80) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}

describe('Code 128', () => {
  it('draws the same bars as bwip-js for text in one code set: letters and signs (B), an even run of digits (C)', () => {
    const oneSet = [
      PRINTABLE.replace(/[0-9]/g, ''),
      ...texts(300, PRINTABLE.replace(/[0-9]/g, ''), 1),
      ...texts(300, '0123456789', 2).map((text) => (text.length % 2 ? `${text}0` : text)),
      '00',
      '99',
    ];
    for (const text of oneSet) expect(code128(text), text).toEqual(bwip(text));
  });

  it('reads back as its text, never wider than bwip-js, for digits mixed with other characters', () => {
    const mixed = [
      ...texts(600, PRINTABLE, 3),
      ...texts(600, '0123456789AB-', 4),
      ...texts(300, '0123456789', 5),
      '1',
      '12345',
      '1Z000000000001',
      'A1234B',
    ];
    let same = 0;
    for (const text of mixed) {
      expect(decode(code128Values(text)), text).toBe(text);
      const ours = code128(text);
      const theirs = bwip(text);
      expect(ours.modules, text).toBeLessThanOrEqual(theirs.modules);
      if (JSON.stringify(ours) === JSON.stringify(theirs)) same += 1;
    }
    // Where the two differ they chose other code sets for as many symbols: most texts come out bar for bar the same.
    expect(same).toBeGreaterThan(mixed.length * 0.6);
  });

  it('every symbol is 11 modules, the stop 13, between quiet zones of 10', () => {
    const text = 'CB0000012345';
    const values = code128Values(text);
    const symbol = code128(text);
    expect(symbol.modules).toBe(10 + 11 * (values.length - 1) + 13 + 10);
    expect(symbol.bars[0]?.x).toBe(10);
  });
});
