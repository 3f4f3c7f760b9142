import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../../scripts/database.mjs';
import { dropFreshDatabase, seedAccount } from '../support/processes';
import { rateSampleAll } from '../support/samples';
import { spawnProcess, startApp, startCommand, type AppProcess } from '../support/spawn';

// Production runs JavaScript that `npm run build` compiled (dist/, scripts/build-server.mjs): no
// TypeScript compiler or loader at run time, and nothing that a production install (`npm ci
// --omit=dev`) leaves out. Proved by starting `npm start`'s own command with a preload
// (e2e/api/support/production-modules-only.mjs, in NODE_OPTIONS so that the supervisor's workers and
// `next start` get it too) that makes every import or require of tsx, esbuild, typescript or any
// package package-lock.json marks `dev` fail, and writes it down: the app must start (migrating an
// empty database on the way), answer the API and a portal page, and stop, with nothing written.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GUARD = path.join(ROOT, 'e2e/api/support/production-modules-only.mjs');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'carrier-compiled-'));
const databases: string[] = [];
let app: AppProcess | undefined;

afterEach(async () => {
  await app?.stop('SIGKILL');
  app = undefined;
});
afterAll(async () => {
  for (const url of databases) await dropFreshDatabase(url).catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

describe('npm start runs compiled JavaScript with production packages only', () => {
  it("npm start's command is plain node on dist/start.js: no tsx, no module hooks", () => {
    const args = startCommand();
    expect(args.at(-1)).toBe('dist/start.js');
    expect(args.filter((arg) => /tsx|--import|--require|--loader|\.ts$/.test(arg))).toEqual([]);
  });

  it.each(['server', 'next'] as const)(
    'START_MODE=%s: starts on an empty database, answers the API and the portal, stops; no tsx, esbuild, typescript or devDependency is loaded',
    async (mode) => {
      const label = `compiled_${mode}`;
      const url: string = await createDatabase(inject('databaseUrl'), `carrier_${label}_${process.pid}_${Date.now()}`);
      databases.push(url);
      const refused = path.join(scratch, `${mode}-refused.log`);
      const seen = path.join(scratch, `${mode}-seen.log`);
      app = await startApp({
        name: `npm start (START_MODE=${mode}, production modules only)`,
        env: {
          DATABASE_URL: url,
          START_MODE: mode,
          APP_WORKERS: '1',
          LOG_LEVEL: 'warn',
          NODE_OPTIONS: `--import=${GUARD}`,
          PRODUCTION_MODULES_LOG: refused,
          PRODUCTION_MODULES_SEEN: seen,
        },
        timeoutMs: 180_000,
      });

      // The API, through the pipeline, the database and the rate cards the start seeded.
      const { token } = await seedAccount(url);
      const rate = await fetch(`${app.baseUrl}/version-test/api/1.1/wf/rate`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(rateSampleAll()),
      });
      const body = (await rate.json()) as { rates: { service: string; amount: string; zone: number }[] };
      expect(rate.status).toBe(200);
      expect(body.rates.find((r) => r.service === 'Carrier Ground')).toMatchObject({ amount: '28.12', zone: 8 });
      // A portal page, rendered by Next.
      const page = await fetch(`${app.baseUrl}/sign-in`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<form');

      expect(await app.stop('SIGTERM')).toBe(0);
      expect(lines(refused)).toEqual([]);
      // The check ran in every Node process: the supervisor, and its worker (server) or `next start` (next).
      const processes = lines(seen);
      expect(processes.some((line) => line.startsWith(`${app!.pid} `) && line.endsWith('dist/start.js'))).toBe(true);
      const child = mode === 'server' ? /dist\/server\.js$/ : /next\/dist\/bin\/next start --keepAliveTimeout 65000 --port \d+$/;
      expect(processes.filter((line) => child.test(line))).toHaveLength(1);
    },
    240_000,
  );

  it('the check can fail: the old way (tsx loading server/start.ts) is refused before it starts', async () => {
    const refused = path.join(scratch, 'tsx-refused.log');
    const proc = spawnProcess({
      name: 'tsx start',
      args: ['--import', 'tsx', '--import', './scripts/hooks/server-only.mjs', 'server/start.ts'],
      env: {
        ...process.env,
        DATABASE_URL: inject('databaseUrl'),
        NODE_OPTIONS: `--import=${GUARD}`,
        PRODUCTION_MODULES_LOG: refused,
        PORT: '1',
      },
    });
    // Refused at its first import; were it not, it would start: stopped here rather than left running.
    const timer = setTimeout(() => void proc.stop('SIGKILL'), 30_000);
    const exit = await proc.exited;
    clearTimeout(timer);
    expect(exit).toBe(1);
    expect(lines(refused)).toEqual([expect.stringMatching(/: tsx -> tsx \(a TypeScript compiler or loader\)$/)]);
  });

  it('every package dist/ imports is a production dependency (dependencies or optionalDependencies)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const info = JSON.parse(readFileSync(path.join(ROOT, 'dist/build-info.json'), 'utf8')) as { externals: string[] };
    const production = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})]);
    const packages = info.externals
      .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier))
      .map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    expect(packages.length).toBeGreaterThan(10);
    expect([...new Set(packages)].filter((name) => !production.has(name))).toEqual([]);
    // And what production does not load stays out of its dependencies.
    for (const name of ['tsx', 'esbuild', 'typescript', 'decimal.js']) {
      expect(production.has(name)).toBe(false);
      expect(pkg.devDependencies[name]).toBeDefined();
    }
  });
});
