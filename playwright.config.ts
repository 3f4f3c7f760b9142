import { defineConfig, devices } from '@playwright/test';
import { E2E_EMBEDDED_DIR } from './e2e/database';
import { findChromium } from './scripts/test-tools.mjs';

// e2e: `npm run build && npm run test:e2e`. One production server (`npm start`, the supervisor with one
// worker; E2E_APP_WORKERS to change it) on a free port, with
// DATABASE_URL if set (each run signs up brand-new users, so a shared database is fine) or an embedded
// PostgreSQL of its own otherwise (.data/postgres-e2e; the app's own, .data/postgres, is left alone). One project,
// `browser`: it drives the portal in the Chromium scripts/test-tools.mjs finds: CHROMIUM_PATH, else Playwright's own
// (`npx playwright install chromium`), else the system's `chromium-headless-shell` or `chromium` (`npm run test:e2e` stops before
// anything runs, naming the install command, when there is none). The HTTP API and the portal's JSON endpoints are
// tested by Vitest (e2e/api/), against a server of its own.

// Chosen once in the runner process; workers inherit the environment, so they agree on it.
process.env.E2E_PORT ??= String(4100 + Math.floor(Math.random() * 800));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL,
    // A failed test keeps its trace with DOM snapshots of every action, but not the screencast: recording it makes
    // the compositor draw and encode frames the whole time a page is open, a third of the suite's CPU. In CI (a clone
    // thrown away after the run) no trace: recording snapshots of every action cost a further fifth, and a failure
    // there still prints its error, the page's accessibility snapshot and a screenshot.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: findChromium().path,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // Frames must keep coming in every tab: Playwright's "stable" check waits for two animation frames.
        '--disable-renderer-backgrounding',
        '--disable-backgrounding-occluded-windows',
        '--disable-background-timer-throttling',
      ],
    },
  },
  projects: [
    {
      name: 'browser',
      testMatch: 'browser/**/*.spec.ts',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
    },
  ],
  webServer: {
    command: 'npm start',
    url: `${baseURL}/sign-in`,
    reuseExistingServer: false,
    timeout: 180_000,
    // At the end, SIGTERM to npm start's process group, as `docker stop` or a Ctrl+C would: the app
    // stops cleanly, then its embedded PostgreSQL. Without this Playwright SIGKILLs the group, which
    // nothing can catch (scripts/database.mjs's watchdog then stops PostgreSQL; see
    // e2e/api/reliability/killed-start.test.ts). SIGKILL after 30 s.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      NODE_ENV: 'production',
      // One worker: per-process limits (sign-in lockout, rate limits) then behave as the specs count them.
      APP_WORKERS: process.env.E2E_APP_WORKERS ?? '1',
      COOKIE_SECURE: 'false',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'warn',
      // The docs spec probes every documented path without a token; that must not trip the per-address guard.
      API_AUTH_FAILURES_PER_MINUTE: '10000',
      // Every browser test signs up and signs in from 127.0.0.1, and the counts live in PostgreSQL (a
      // rerun within the hour on the same database adds to them): no per-address limit here.
      // e2e/api/trust-boundaries.test.ts proves the limits on servers of its own, at their defaults.
      SIGN_UPS_PER_ADDRESS_PER_HOUR: '100000',
      SIGN_IN_FAILURES_PER_ADDRESS: '100000',
      // No SMTP_URL: mail goes to the development outbox (/dev/outbox), which the password-reset spec reads, and
      // its links start with this server's address.
      MAIL_OUTBOX: 'on',
      APP_URL: baseURL,
      MAIL_REQUESTS_PER_ADDRESS_PER_HOUR: '100000',
      // Public tracking's per-address count too (e2e/api/public-tracking.test.ts proves it at its default).
      TRACKING_LOOKUPS_PER_ADDRESS_PER_MINUTE: '100000',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      // Without a DATABASE_URL, an embedded PostgreSQL of the suite's own (e2e/database.ts says why).
      EMBEDDED_PG_DIR: E2E_EMBEDDED_DIR,
      // Production on a DATABASE_URL needs the key webhook secrets are encrypted under. A fixed one for
      // tests only, so runs on the same database agree; the embedded default keeps its own in .data/.
      ...((process.env.E2E_DATABASE_URL ?? process.env.DATABASE_URL) && !process.env.WEBHOOK_SECRETS_KEY
        ? { WEBHOOK_SECRETS_KEY: 'ZTJlLW9ubHkgd2ViaG9vayBzZWNyZXRzIGtleSAzMmI=' }
        : {}),
    },
  },
});
