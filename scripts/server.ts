// The production server: one node:http server that answers the API paths itself, through the
// framework-free pipeline (lib/http/node-adapter.ts), and hands every other path (portal pages,
// portal-api, assets) to Next's request handler. Next's per-request pipeline costs far more than
// our operations do (docs/decisions/production-server.md), so the API does not go through it.
// The route handlers under app/api stay: `START_MODE=next npm start` serves everything through
// Next, and the API suite runs against both ways in.
//
// Run by scripts/start.ts (npm start / npm run dev), or alone once DATABASE_URL points at a
// migrated database:
//   DATABASE_URL=... node --import tsx --import ./scripts/hooks/server-only.mjs scripts/server.ts [--dev]
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RequestHandler, UpgradeHandler } from 'next/dist/server/next';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StartServerOptions {
  dev?: boolean;
  port?: number;
  hostname?: string;
  /** Serve only the API (no Next): what the benchmarks' and tests' bare mode need. */
  apiOnly?: boolean;
}

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes Next and the database pool. */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const dev = options.dev ?? false;
  // Next reads NODE_ENV when it is loaded; set it first, as `next start` / `next dev` would.
  (process.env as Record<string, string>).NODE_ENV ??= dev ? 'development' : 'production';
  // Unset: every interface, as `next start` does. (Not $HOSTNAME: shells and containers set it to the machine's name.)
  const hostname = options.hostname ?? process.env.BIND_ADDRESS;
  const port = options.port ?? Number(process.env.PORT ?? 3000);

  // Imported after NODE_ENV is settled: lib/log and lib/env read the environment once.
  const [{ answerClientError, handleNodeApiRequest, sendNotAnApiPath, sendServerFailure }, { log }] = await Promise.all([import('@/lib/http/node-adapter'), import('@/lib/log')]);

  let nextHandler: RequestHandler | undefined;
  let nextApp: { close(): Promise<void> } | undefined;
  let upgradeHandler: UpgradeHandler | undefined;
  if (!options.apiOnly) {
    const { default: next } = await import('next');
    const app = next({ dev, dir: ROOT, hostname: hostname ?? 'localhost', port });
    await app.prepare();
    nextHandler = app.getRequestHandler();
    // Dev mode's hot reload talks over a WebSocket upgrade.
    upgradeHandler = dev ? app.getUpgradeHandler() : undefined;
    nextApp = app;
  }

  // The envelope with a request id, whatever escaped (lib/http/node-adapter.ts).
  const fail = (res: ServerResponse, error: unknown) => sendServerFailure(res, error);

  const server = createServer((req, res) => {
    handleNodeApiRequest(req, res).then(
      (handled) => {
        if (handled) return;
        if (nextHandler) return nextHandler(req, res).catch((error: unknown) => fail(res, error));
        sendNotAnApiPath(res);
      },
      (error: unknown) => fail(res, error),
    );
  });
  // A request Node's parser refuses (headers over 16 KB, say) gets the envelope too, not a bare status line.
  server.on('clientError', answerClientError);
  if (upgradeHandler) {
    const upgrade = upgradeHandler;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(req, socket, head).catch(() => socket.destroy()));
  }
  // A client has 10 s to send its headers and 60 s for the whole request (a 5 MB body on a slow
  // link); idle keep-alive connections stay open longer than a typical load balancer's 60 s so
  // that the balancer, not us, closes them (no race on a reused connection).
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  log.info({ port: actualPort, dev, apiOnly: options.apiOnly ?? false }, 'server listening');

  let closing: Promise<void> | undefined;
  const close = (graceMs = 10_000): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      deadline.unref();
      await closed;
      clearTimeout(deadline);
      await nextApp?.close().catch(() => undefined);
      const { db, pgPool } = await import('@/lib/db');
      await db.$disconnect().catch(() => undefined);
      await pgPool().end().catch(() => undefined);
    })();
    return closing;
  };
  return { server, port: actualPort, close };
}

// Run directly (not imported by scripts/start.ts): serve until SIGTERM / SIGINT.
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const running = await startServer({ dev: process.argv.includes('--dev'), apiOnly: process.argv.includes('--api-only') });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      running.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
