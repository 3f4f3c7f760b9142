// npm run openapi:lint: `redocly lint` (the @redocly/cli) over the OpenAPI document as the API serves it, written to a
// temporary file, with Redocly's strictest built-in ruleset (recommended-strict: every recommended rule an error) and
// operation-tag-defined, which that ruleset leaves off: an operation whose tag is not declared is left out by a
// renderer that groups by the declared tags. Any problem, warning or error, fails it; lib/api/openapi/lint.test.ts runs
// the same in the unit suite, so CI lints on every run.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { openApiDocument } from '../lib/api/openapi/document';

/** The rules, for the CLI's config file and for @redocly/openapi-core's createConfig alike. */
export const LINT_CONFIG = {
  extends: ['recommended-strict'],
  rules: { 'operation-tag-defined': 'error' },
} as const;

export interface RedoclyProblem {
  ruleId: string;
  severity: string;
  message: string;
  location?: { pointer?: string }[];
}

/** The CLI's report (--format=json) for the document: its totals and every problem. */
export async function redoclyLint(
  document: unknown = openApiDocument(),
): Promise<{ totals: { errors: number; warnings: number }; problems: RedoclyProblem[] }> {
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    // YAML reads JSON: the config file is the object above as it is.
    const config = join(dir, 'redocly.yaml');
    writeFileSync(config, JSON.stringify(LINT_CONFIG));
    // Exit status 1 only on errors; the report is read either way, so that warnings fail too. Every problem is
    // listed (the CLI stops at 100 by default).
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'lint', `--config=${config}`, '--lint-config=error', '--max-problems=10000', '--format=json', file],
      {
        cwd: dir,
        // No telemetry, no update check: the lint reads the file and nothing else.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return JSON.parse(stdout) as Awaited<ReturnType<typeof redoclyLint>>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { totals, problems } = await redoclyLint();
  for (const p of problems) console.error(`${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`);
  console.log(`redocly lint (recommended-strict, operation-tag-defined): ${totals.errors} errors, ${totals.warnings} warnings`);
  if (problems.length > 0) process.exit(1);
}
