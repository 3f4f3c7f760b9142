import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A webhook receiver on loopback, as a shipper would write one: every request's signature is checked
// with the public `standardwebhooks` package against the secret of the endpoint (one path each).
// It also notices an attempt that arrives while another with the same webhook-id is still open.

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** null when the signature verified; otherwise why not. */
  verifyError: string | null;
}

/** How to answer the n-th request (0-based) on a path. `hold`: never answer (until the socket dies). */
export type Reply = { status?: number; headers?: Record<string, string>; body?: string; delayMs?: number; hold?: boolean };
export type Behaviour = (n: number, request: Received) => Reply;

export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly concurrentDuplicates: string[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly open = new Map<string, number>();
  private readonly held: ServerResponse[] = [];
  private server?: Server;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void this.handle(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
    this.server = undefined;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Registers what a path answers, and the secret its signatures must verify with. */
  on(path: string, secret: string, behaviour: Behaviour = () => ({ status: 200 })): void {
    this.secrets.set(path, secret);
    this.behaviours.set(path, behaviour);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Ends every held request by closing its connection. */
  dropHeld(): void {
    for (const res of this.held.splice(0)) res.socket?.destroy();
  }

  private async handle(url: string, headers: IncomingHttpHeaders, body: string, res: ServerResponse): Promise<void> {
    const path = url.split('?')[0];
    const secret = this.secrets.get(path);
    let verifyError: string | null = 'no endpoint registered on this path';
    if (secret) {
      try {
        new Webhook(secret).verify(body, headers as Record<string, string>);
        verifyError = null;
      } catch (error) {
        verifyError = (error as Error).message;
      }
    }
    const request: Received = { path, headers, body, at: Date.now(), verifyError };
    const n = this.at(path).length;
    this.received.push(request);
    const id = String(headers['webhook-id']);
    const openCount = this.open.get(id) ?? 0;
    if (openCount > 0) this.concurrentDuplicates.push(id);
    this.open.set(id, openCount + 1);
    const done = () => this.open.set(id, (this.open.get(id) ?? 1) - 1);
    res.on('close', done);
    const reply: Reply = (this.behaviours.get(path) ?? ((): Reply => ({ status: 404 })))(n, request);
    if (reply.hold) {
      this.held.push(res);
      return;
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
    res.end(reply.body ?? 'ok');
  }
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Polls `probe` every 20 ms until it returns something truthy, and returns that. */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
