import { ensureDatabase } from '../scripts/database.mjs';

// The database Playwright's server (`npm start`, playwright.config.ts) runs on, for specs that write to it or make
// databases of their own beside it: DATABASE_URL (E2E_DATABASE_URL first) if set, else an embedded PostgreSQL of
// the suite's own. Not the app's .data/postgres: a run leaves hundreds of test accounts behind, and its sign-ups from
// 127.0.0.1 would be counted against the developer's own next sign-up for an hour (429).
export const E2E_EMBEDDED_DIR = '.data/postgres-e2e';

/** The URL of the database the server under test uses (the embedded one is already running: the server started it). */
export async function e2eDatabaseUrl(): Promise<string> {
  return process.env.E2E_DATABASE_URL ?? process.env.DATABASE_URL ?? (await ensureDatabase({ dataDir: E2E_EMBEDDED_DIR })).url;
}
