// The portal's process under `npm start`: Next alone, on a private Unix socket (CARRIER_PORTAL_SOCKET) that only the
// API workers (server/server.ts) connect to. They accept every connection, answer the API and the probes themselves and
// pass the rest here (lib/http/portal-proxy.ts), so that no API request shares a process with Next
// (docs/decisions/production-server.md, "The portal in a process of its own").
//
// The supervisor (server/start.ts) forks it once the first API worker is ready and starts another if it dies. A stop
// is the supervisor's to order, after the API workers have finished their requests, which may be waiting on this
// process: a signal to the whole group is left to the supervisor, which sends `carrier:stop` once they have. Its
// disappearance (or a signal when run without one) stops this process at once.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeProcessResources, drainServer } from './shutdown';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

(process.env as Record<string, string>).NODE_ENV ??= 'production';
const socketPath = process.env.CARRIER_PORTAL_SOCKET;
if (!socketPath) {
  console.error('server/portal.ts is started by npm start, with CARRIER_PORTAL_SOCKET set');
  process.exit(2);
}

// Installed first: a stop that comes while Next is still preparing ends this process at once (nothing is in flight).
const running: { close?: () => Promise<void> } = {};
const stop = () => {
  if (!running.close) process.exit(0);
  void running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
const supervised = typeof process.send === 'function';
// `on`, not `once`: a second signal must not fall through to the default action (exit at once).
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, supervised ? () => undefined : stop);
if (supervised) {
  process.on('message', (message: unknown) => {
    if ((message as { type?: string } | null)?.type === 'carrier:stop') stop();
  });
  // The supervisor is gone (killed): it will not remove this instance's socket directory, so this process does.
  process.on('disconnect', () => {
    process.once('exit', () => rmSync(path.dirname(socketPath), { recursive: true, force: true }));
    stop();
  });
}

const [{ processSettings, env }, { log }, { answerClientError, sendServerFailure }, { stampPeerAddressesInServer }] =
  await Promise.all([
    import('@/lib/env'),
    import('@/lib/log'),
    import('@/lib/http/node-adapter'),
    import('@/lib/http/peer-address'),
  ]);
const settings = processSettings();
const config = env(); // a bad configuration stops here, with the reason
// The API workers stamped each request's peer; instrumentation.ts must not stamp it again with this socket's.
stampPeerAddressesInServer();

const { captureNativeGlobals } = await import('@/lib/http/native-globals');
const restoreNativeGlobals = captureNativeGlobals();
const { default: next } = await import('next');
const app = next({ dev: false, dir: ROOT, hostname: settings.BIND_ADDRESS ?? 'localhost', port: settings.PORT });
try {
  await app.prepare();
} catch (error) {
  log.fatal({ err: error }, 'Next could not be prepared: the portal cannot be served');
  process.exit(1);
}
restoreNativeGlobals();
const handler = app.getRequestHandler();

// An HTTP/1.0 request with no Host reaches the portal as an HTTP/1.1 one: Node's own check would refuse it here.
// A request has 65 s to arrive whole: the API worker in front gives its client 60 s, so its own deadline answers first.
const server = createServer({ requireHostHeader: false, requestTimeout: 65_000 }, (req: IncomingMessage, res: ServerResponse) => {
  void handler(req, res).catch((error: unknown) => sendServerFailure(res, error));
});
server.on('clientError', answerClientError);
// Longer than the API workers keep an idle connection to it (lib/http/portal-proxy.ts), so that they close it first.
server.keepAliveTimeout = 65_000;

// A socket file left by a portal that was killed would refuse the listen; the directory is this instance's own.
rmSync(socketPath, { force: true });
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(socketPath, () => resolve());
});
log.info({ socket: path.basename(socketPath) }, 'portal listening');
process.send?.({ type: 'carrier:portal-listening' });

let closing: Promise<void> | undefined;
running.close = (graceMs = config.APP_STOP_GRACE_MS): Promise<void> => {
  closing ??= (async () => {
    await drainServer(server, graceMs);
    await app.close().catch(() => undefined);
    await closeProcessResources();
  })();
  return closing;
};
