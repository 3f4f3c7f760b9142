import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { createDatabase, dropDatabase } from '../../../scripts/database.mjs';
import { WebhookReceiver } from './webhook-receiver';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { spawnProcess, startApp, workerCommand } from './spawn';

// The set-up of the webhook delivery tests (webhooks-delivery, lifecycle-webhooks, close-out-webhooks): a database of their own, so
// that the queue holds only their messages; the real app (npm start's command) and real worker processes (`npm run
// worker`: dist/worker.js) on it, with schedules shortened by settings, not slept.

export const WORKER_ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '50,100,200',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '2000',
  WEBHOOK_POLL_MS: '100',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
};

export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string>;
}

/** A fresh database under `name`, migrated, and this test file's own: lib/db reads DATABASE_URL at its first query. */
export async function ownDatabase(serverDatabaseUrl: string, name: string): Promise<string> {
  const databaseUrl = await createDatabase(serverDatabaseUrl, name);
  await migrateDeploy(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  return databaseUrl;
}

export function startWorker(databaseUrl: string, env: Record<string, string> = {}): Proc {
  return spawnProcess({
    name: 'webhook worker',
    args: workerCommand(), // `npm run worker`'s own command (dist/worker.js)
    env: { ...process.env, ...WORKER_ENV, DATABASE_URL: databaseUrl, ...env },
  });
}

export async function stopProcess(proc: Proc | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string | null> {
  if (!proc) return null;
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  return proc.exited;
}

/** The app, one worker process, rate limits out of the way; WEBHOOK_WORKER in `env` says whether it delivers too. */
export async function startApi(databaseUrl: string, env: Record<string, string>): Promise<{ proc: Proc; url: string }> {
  const app = await startApp({
    name: 'app',
    env: {
      ...WORKER_ENV,
      DATABASE_URL: databaseUrl,
      APP_WORKERS: '1',
      API_RATE_LIMIT_PER_SECOND: '5000',
      API_RATE_LIMIT_BURST: '5000',
      ...env,
    },
    readyPath: '/version-test/api/1.1/webhooks',
  });
  return { proc: app, url: app.baseUrl };
}

/** Calls to that app's test API with a token: the answer's status, text and JSON; `ok` expects a 200. */
export function testApi(apiUrl: () => string) {
  async function request(method: string, path: string, token: string, body?: unknown) {
    const response = await fetch(`${apiUrl()}/version-test/api/1.1${path}`, {
      method,
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
  }
  async function ok(method: string, path: string, token: string, body?: unknown) {
    const result = await request(method, path, token, body);
    expect(result.status, `${method} ${path}: ${result.text}`).toBe(200);
    return result.json;
  }
  return { request, ok };
}

/** A tracking number no other test makes: the prefix and 18 random characters. */
export function tn(prefix: string): string {
  return `${prefix}${randomUUID().replaceAll('-', '').slice(0, 18).toUpperCase()}`;
}

/**
 * A test file's delivery set-up, registered as its first beforeAll/afterAll: its own database (`prefix` names it),
 * a receiver on loopback, the app with its in-process worker off and one worker process; all stopped and dropped
 * after. The file's later beforeAll sees DATABASE_URL pointing at that database.
 */
export function deliveryHarness(prefix: string) {
  const serverDatabaseUrl = inject('databaseUrl');
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  let receiver: WebhookReceiver | undefined;
  let api: Proc | undefined;
  let worker: Proc | undefined;
  let apiUrl = '';
  beforeAll(async () => {
    const databaseUrl = await ownDatabase(serverDatabaseUrl, name);
    receiver = await new WebhookReceiver().start();
    const app = await startApi(databaseUrl, { WEBHOOK_WORKER: 'off' });
    api = app.proc;
    apiUrl = app.url;
    worker = startWorker(databaseUrl);
  });
  afterAll(async () => {
    await Promise.all([stopProcess(worker), stopProcess(api)]);
    await receiver?.stop();
    await dropDatabase(serverDatabaseUrl, name).catch(() => undefined);
  });
  return {
    get receiver(): WebhookReceiver {
      if (!receiver) throw new Error('the delivery harness has not started');
      return receiver;
    },
    apiUrl: () => apiUrl,
  };
}
