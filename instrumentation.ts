// Next.js calls register() once per server process at start-up. In the Node.js runtime (next start,
// next dev) it starts the webhook delivery worker beside the app, unless WEBHOOK_WORKER=off; more
// workers can run apart with `npm run worker`. Imported lazily: the edge runtime must not load it.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.WEBHOOK_WORKER === 'off') return;
  const { startWebhookWorker } = await import('./lib/webhooks/worker');
  const worker = startWebhookWorker();
  // Next (or the custom server) exits on SIGTERM without waiting for us; an attempt cut short is
  // retried after its lease. If nothing else handles SIGTERM, our listener must exit, as the default would.
  process.once('SIGTERM', () => {
    const alone = process.listenerCount('SIGTERM') === 0;
    void worker.stop().finally(() => {
      if (alone) process.exit(0);
    });
  });
}
