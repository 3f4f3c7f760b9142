// The API app (lib/http/api-app.ts: Fastify's router, body reader and CORS around our steps) alone on
// node:http, in the same harness as the framework apps of bench/servers.ts: no Next beside it, no
// cluster supervisor in front. It separates what the production server's surroundings cost from
// what the API costs. (Until issue 12's move it ran the hand-written pipeline, now gone.)
// Run by bench/servers.ts; env: DATABASE_URL, PORT.
import { createServer } from 'node:http';
import { createApiApp } from '@/lib/http/api-app';
import { answerClientError, discardRest, nodeClient } from '@/lib/http/node-adapter';
import { port, stopOnSignal } from './common';

const { server } = await createApiApp({
  client: nodeClient,
  abandonBody: discardRest,
  server: { create: (handler) => createServer(handler) },
});
if (!server) throw new Error('no server');
// scripts/server.ts's settings.
server.removeAllListeners('clientError');
server.on('clientError', answerClientError);
server.headersTimeout = 10_000;
server.requestTimeout = 60_000;
server.keepAliveTimeout = 65_000;
server.listen(port(), '127.0.0.1');
stopOnSignal(() => new Promise((resolve) => server.close(resolve)));
