// Our own pipeline (lib/http/node-adapter.ts → handleApiRequest) alone on node:http, in the same
// harness as the framework apps of bench/servers.ts: no Next beside it, no cluster supervisor in
// front. It separates what the production server's surroundings cost from what the pipeline costs.
// Run by bench/servers.ts; env: DATABASE_URL, PORT.
import { createServer } from 'node:http';
import { answerClientError, handleNodeApiRequest, sendNotAnApiPath, sendServerFailure } from '@/lib/http/node-adapter';
import { port, stopOnSignal } from './common';

const server = createServer((req, res) => {
  handleNodeApiRequest(req, res).then(
    (handled) => {
      if (!handled) sendNotAnApiPath(res);
    },
    (error: unknown) => sendServerFailure(res, error),
  );
});
// scripts/server.ts's settings.
server.on('clientError', answerClientError);
server.headersTimeout = 10_000;
server.requestTimeout = 60_000;
server.keepAliveTimeout = 65_000;
server.listen(port(), '127.0.0.1');
stopOnSignal(() => new Promise((resolve) => server.close(resolve)));
