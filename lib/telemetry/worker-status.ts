// On globalThis: under `next start`, instrumentation.ts starts the worker and app/readyz/route.ts, another bundle, reads
// its status. No imports: lib/webhooks publishes here.

export interface PublishedWorkerStatus {
  running: boolean;
  heartbeatAgeMs: number | null;
  staleAfterMs: number;
}

const WORKER_KEY = Symbol.for('carrier.webhookWorkerStatus');
type WorkerGlobal = typeof globalThis & { [WORKER_KEY]?: () => PublishedWorkerStatus };

export function publishWorkerStatus(status: () => PublishedWorkerStatus): void {
  (globalThis as WorkerGlobal)[WORKER_KEY] = status;
}

export function publishedWorkerStatus(): PublishedWorkerStatus {
  return (globalThis as WorkerGlobal)[WORKER_KEY]?.() ?? { running: false, heartbeatAgeMs: null, staleAfterMs: 0 };
}
