// npm run worker: a webhook delivery worker on its own, for scale-out. Any number of these (and of
// the app, which runs one inside unless WEBHOOK_WORKER=off) share the queue in DATABASE_URL.
// SIGTERM/SIGINT: stop claiming, finish the attempts in flight (each ends within the timeout), exit.
import { env } from '@/lib/env';
import { runWebhookWorker } from '@/lib/webhooks/run-worker';

env(); // a bad configuration stops here, with the reason
runWebhookWorker({ stopOnSignals: true });
