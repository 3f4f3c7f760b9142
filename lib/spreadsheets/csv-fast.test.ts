import { describe, expect, it } from 'vitest';
import { csvCell } from './csv';
import { exportCell, exportLine } from './csv-fast';

// The exports' fast cell writer must write exactly what csvCell writes (the CSV's content did not change).
describe('exportCell', () => {
  const hostile = [
    '',
    'plain',
    '=1+2',
    '+SUM(A1)',
    '-2,5',
    '@cmd',
    '\tTab',
    '\rCR first',
    '\nLF first',
    'say "hi",\r\nthen\nleave 📦 🚚',
    '"quoted"',
    'a\tb',
    '😀',
    ' =not at start',
    "'already",
    ',',
    '"',
    '=',
    '\ud800 lone',
    'x'.repeat(10_000),
    'é,ü',
    '+44 20 7946 0958',
    '+1 (555) 010-0199',
    '-12.5',
    '-1-2',
    '+',
    '-',
    '+44 20 A1',
    '-1+cmd|x',
    '+1e5',
    '--1',
  ];
  it.each(hostile.map((v) => [JSON.stringify(v).slice(0, 40), v]))('%s as csvCell writes it', (_label, value) => {
    expect(exportCell(value)).toBe(csvCell(value));
  });
  it('numbers, booleans, null and undefined as csvCell; objects as their JSON, quoted', () => {
    for (const value of [0, -1, 1.2, 10_000, -0.5, true, false, null, undefined]) expect(exportCell(value)).toBe(csvCell(value));
    expect(exportCell({ a: '=x', b: [1, 2] })).toBe(csvCell(JSON.stringify({ a: '=x', b: [1, 2] })));
  });
  it('a line: the columns in order, missing ones empty, CRLF at the end', () => {
    expect(exportLine(['a', 'b', 'c'], { c: '-1', a: 'x,y', b: '-x' })).toBe('"x,y",\'-x,-1\r\n');
  });
});
