// A bare node:http server for the API alone, through the same framework-free pipeline as the
// Next route handlers. The API test suite runs against it (TEST_SERVER=node) and against
// `next start` (TEST_SERVER=next), so both ways in keep one contract.
import { createServer } from 'node:http';
import { handleNodeApiRequest } from '@/lib/http/node-adapter';
import { log } from '@/lib/log';

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
server.listen(port, '127.0.0.1', () => log.info({ port }, 'api server listening'));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
