// npm run worker: a webhook delivery worker on its own, for scale-out. Any number of these (and of
// the app, which runs one inside unless WEBHOOK_WORKER=off) share the queue in DATABASE_URL.
// SIGTERM/SIGINT: stop claiming, finish the attempts in flight (each ends within the timeout), exit.
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { startWebhookWorker } from '@/lib/webhooks/worker';

env(); // a bad configuration stops here, with the reason
const worker = startWebhookWorker();

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'webhook worker stopping');
    worker
      .stop()
      .then(() => db.$disconnect())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'webhook worker failed to stop cleanly');
        process.exit(1);
      });
  });
}
