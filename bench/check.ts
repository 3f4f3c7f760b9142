// The guard (`npm run bench -- --check`) and the table at the top of bench/RESULTS.md.
//
// A benchmark row that carries a `guard` (bench/run.ts) is judged against its goal: met, missed (short of the goal,
// but within 10 %), or failed (more than 10 % short, or broken: deliveries lost, errors). `--check` prints every
// guarded row beside the last figure recorded for it and exits non-zero on a failure. Every run that writes
// (`--check` included, unless --no-write) replaces the rows it measured in RESULTS.md's table, one row per
// benchmark, so the file's top always shows the newest figure of each; the full reports go below it.
// Not in CI: on a shared 2-core machine one run's ratio swings by ±15 %, too much to gate a merge on.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

export interface Guard {
  /** Names the benchmark in RESULTS.md's table; stable across runs. */
  key: string;
  /** This run's figure: a ratio (0.9 = 90 %, or 1.3 = 1.3 ×) or milliseconds. */
  value: number;
  target: number;
  better: 'higher' | 'lower';
  unit: 'percent' | 'times' | 'ms';
  /** Why the figure does not count (lost or duplicate deliveries, errors): always a failure. */
  broken?: string;
  /** What else the run measured that the figure stands for (shown beside it). */
  detail?: string;
}

export type Verdict = 'met' | 'missed' | 'failed';

/** Short of the goal by this much or more (10 % of the goal), a guarded figure fails the check. */
export const TOLERANCE = 0.1;

export function verdictOf(guard: Guard): Verdict {
  if (guard.broken) return 'failed';
  const { value, target } = guard;
  if (!Number.isFinite(value)) return 'failed';
  if (guard.better === 'higher') return value >= target ? 'met' : value >= target * (1 - TOLERANCE) ? 'missed' : 'failed';
  return value <= target ? 'met' : value <= target * (1 + TOLERANCE) ? 'missed' : 'failed';
}

export function formatFigure(value: number, unit: Guard['unit']): string {
  if (!Number.isFinite(value)) return '—';
  if (unit === 'percent') return `${Math.round(value * 100)} %`;
  if (unit === 'times') return `${value.toFixed(2)} ×`;
  return `${Math.round(value).toLocaleString('en-US')} ms`;
}

export function formatGoal(guard: Pick<Guard, 'target' | 'better' | 'unit'>): string {
  const sign = guard.better === 'higher' ? '≥' : guard.unit === 'ms' ? '<' : '≤';
  return `${sign} ${formatFigure(guard.target, guard.unit)}`;
}

/** One line of RESULTS.md's table. */
export interface LatestRow {
  /** A guarded row's key, else its benchmark cell (keyOf). */
  key: string;
  /** "`key` name" for a guarded row (a lower-case key), else the benchmark's name. */
  benchmark: string;
  goal: string;
  latest: string;
  verdict: string;
  date: string;
  commit: string;
  run: string;
}

const BEGIN = '<!-- latest: one row per benchmark, its newest figure; rows rewritten by npm run bench (bench/check.ts) -->';
const END = '<!-- /latest -->';
const HEADER = ['| Benchmark | Goal | Latest | Verdict | Date (UTC) | Commit | Run |', '|---|---|---|---|---|---|---|'];

function cells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(' | ')
    .map((c) => c.trim());
}

/** A row's key: the guard's (the cell's leading `key`, lower-case letters, digits and dashes), else the whole cell. */
export function keyOf(benchmark: string): string {
  return /^`([a-z0-9-]+)` /.exec(benchmark)?.[1] ?? benchmark;
}

/** The table's rows, by key. */
export function readLatest(file: string): Map<string, LatestRow> {
  const rows = new Map<string, LatestRow>();
  if (!existsSync(file)) return rows;
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return rows;
  for (const line of text.slice(start, end).split('\n')) {
    const [benchmark, goal, latest, verdict, date, commit, run] = cells(line);
    if (!benchmark || run === undefined || benchmark === 'Benchmark' || /^:?-+:?$/.test(benchmark)) continue;
    const key = keyOf(benchmark);
    rows.set(key, { key, benchmark, goal, latest, verdict, date, commit, run });
  }
  return rows;
}

/** Replaces (or adds) `updates` in the table, keeping the other rows and their order; the rest of the file as it is. */
export function writeLatest(file: string, updates: LatestRow[]): void {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file} has no table between "${BEGIN}" and "${END}"`);
  const rows = readLatest(file);
  for (const row of updates) rows.set(row.key, row);
  const lines = [...rows.values()].map(
    (r) => `| ${r.benchmark} | ${r.goal} | ${r.latest} | ${r.verdict} | ${r.date} | ${r.commit} | ${r.run} |`,
  );
  writeFileSync(file, `${text.slice(0, start)}${[BEGIN, ...HEADER, ...lines].join('\n')}\n${text.slice(end)}`);
}

/** The check's report: each guarded figure beside its goal and the figure recorded before this run. */
export function checkTable(
  guarded: { name: string; guard: Guard; detail: string }[],
  before: Map<string, LatestRow>,
): { table: string; failed: number } {
  const lines = [
    '| Benchmark | Goal | This run | Last recorded | Verdict |',
    '|---|---|---|---|---|',
    ...guarded.map(({ name, guard, detail }) => {
      const last = before.get(guard.key);
      const verdict = verdictOf(guard);
      const shown = `${formatFigure(guard.value, guard.unit)}${detail ? ` (${detail})` : ''}${guard.broken ? `; **${guard.broken}**` : ''}`;
      return `| \`${guard.key}\` ${name} | ${formatGoal(guard)} | ${shown} | ${last ? `${last.latest} (${last.date}, ${last.commit})` : '—'} | ${verdict === 'met' ? 'met' : `**${verdict}**`} |`;
    }),
  ];
  return { table: lines.join('\n'), failed: guarded.filter(({ guard }) => verdictOf(guard) === 'failed').length };
}

/** Formats a results file as the repository's format check wants it (Prettier, aligned tables); the file as it is if Prettier is missing. */
export async function formatResults(file: string): Promise<void> {
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(file)) ?? {};
    await writeFile(file, await prettier.format(await readFile(file, 'utf8'), { ...options, filepath: file }));
  } catch {
    // Unformatted is still correct; `npm run format` fixes it.
  }
}
