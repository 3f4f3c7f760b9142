// Next.js calls register() once per server process at start-up. In the Node.js runtime (next start,
// next dev, the production server) it records each request's socket address for the route
// handlers (lib/http/peer-address.ts) and starts the webhook delivery worker beside the app, unless
// WEBHOOK_WORKER=off; more workers can run apart with `npm run worker`. Imported lazily: the edge
// runtime must not load them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { installPeerAddressHeader } = await import('./lib/http/peer-address');
  installPeerAddressHeader();
  const { processSettings } = await import('./lib/env');
  const settings = processSettings();
  // The automatic close-out of daily manifests at their account's cut-off hour (lib/close-out), in every process.
  if (settings.CLOSE_OUT_INTERVAL_MS > 0) {
    const { startCloseOutTimer } = await import('./lib/close-out/timer');
    startCloseOutTimer(settings.CLOSE_OUT_INTERVAL_MS);
  }
  // The e-mails to shipments' recipients (lib/recipient-mail), sent from every process (each mail claimed by one).
  if (settings.RECIPIENT_MAIL_INTERVAL_MS > 0) {
    const { startRecipientMailSender } = await import('./lib/recipient-mail/send-due');
    startRecipientMailSender(settings.RECIPIENT_MAIL_INTERVAL_MS);
  }
  // Invoices of the periods that ended (lib/billing), from every process (each period issued once, under a lock).
  if (settings.INVOICE_INTERVAL_MS > 0) {
    const { startInvoiceTimer } = await import('./lib/billing/invoice-timer');
    startInvoiceTimer(settings.INVOICE_INTERVAL_MS);
  }
  // The request log's retention (lib/request-log): 30 days, checked hourly in every process; also with
  // REQUEST_LOG=off, which stops new lines, not the deletion of those already kept.
  const { startRequestLogRetention } = await import('./lib/request-log/retention');
  startRequestLogRetention(3_600_000);
  // The audit log's retention (lib/audit): a year, checked hourly in every process; the only deletion its trigger allows.
  const { startAuditRetention } = await import('./lib/audit/retention');
  startAuditRetention(3_600_000);
  // Idempotency keys are kept 24 hours (lib/idempotency); the expired ones go hourly.
  const { startIdempotencyKeyPurge } = await import('./lib/idempotency/idempotency-keys');
  startIdempotencyKeyPurge(3_600_000);
  // Under the production server (server/server.ts, npm start) the server has started it already: this finds it.
  const { runWebhookWorker } = await import('./lib/webhooks/run-worker');
  runWebhookWorker({ stopOnSignals: true });
}
