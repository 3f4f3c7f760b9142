// A bare node:http server for the API alone, through the same framework-free pipeline as the
// Next route handlers. The API test suite runs against it (TEST_SERVER=node) and against
// `next start` (TEST_SERVER=next), so both ways in keep one contract.
import { createServer } from 'node:http';
import { env } from '@/lib/env';
import { handleNodeApiRequest } from '@/lib/http/node-adapter';
import { log } from '@/lib/log';
import { startWebhookWorker } from '@/lib/webhooks/worker';

const port = Number(process.env.PORT ?? 3001);
const server = createServer((req, res) => {
  handleNodeApiRequest(req, res)
    .then((handled) => {
      if (!handled) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'not_found', message: 'Not an API path.' } }));
      }
    })
    .catch((error: unknown) => {
      log.error({ err: error }, 'api server failed a request');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong on our side.' } }));
    });
});
server.keepAliveTimeout = 65_000;
// Slow or never-ending requests are cut off rather than holding a socket forever.
server.requestTimeout = Number(process.env.API_REQUEST_TIMEOUT_MS ?? 30_000);
server.headersTimeout = Math.min(server.requestTimeout, 20_000);
server.listen(port, '127.0.0.1', () => log.info({ port }, 'api server listening'));

// One command runs the API and a webhook delivery worker, as `next start` does (instrumentation.ts).
const worker = env().WEBHOOK_WORKER === 'on' ? startWebhookWorker() : undefined;

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    // Attempts in flight finish (or the lease frees them) while the server stops taking requests.
    const stopped = Promise.all([worker?.stop(), new Promise((resolve) => server.close(resolve))]);
    // Idle keep-alive sockets would otherwise hold the close for keepAliveTimeout.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
    stopped.then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
