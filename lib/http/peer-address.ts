import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { answerClientError } from './client-error';

// Next fills X-Forwarded-For from the socket only when the client sent none, so a route handler cannot know its peer.
// Each request handed to Next gets the socket's address under this header, written over any client value and prefixed
// with a random nonce, so a client cannot forge it. The nonce is one per process, or, under `npm start`, one per
// instance: the API workers stamp the requests they pass to the portal's process (server/portal.ts), which reads them.
// The production server (server/server.ts) stamps the requests it hands to Next itself; under `next start` and
// `next dev`, instrumentation.ts patches every server's `emit` instead. The nonce and the choice live on globalThis:
// Next's bundle and the server's are two copies of this file.

export const PEER_HEADER = 'x-carrier-peer';
const KEY = Symbol.for('carrier.peerAddressNonce');
const STAMPED_BY_SERVER = Symbol.for('carrier.peerAddressStampedByServer');
const PATCHED = Symbol.for('carrier.peerAddressPatched');
type Global = typeof globalThis & { [KEY]?: string; [STAMPED_BY_SERVER]?: boolean; [PATCHED]?: boolean };

/** Set by `npm start`'s supervisor for its processes: the API workers stamp what the portal's process reads. */
export const PEER_NONCE_ENV = 'CARRIER_PEER_NONCE';

function nonce(): string {
  const global = globalThis as Global;
  const shared = process.env[PEER_NONCE_ENV];
  return (global[KEY] ??= shared && /^[0-9a-f]{32}$/.test(shared) ? shared : randomBytes(16).toString('hex'));
}

/**
 * Said by a server that hands requests to Next through `stampPeerAddress`: the per-request patch of every server's
 * `emit` that `installPeerAddressHeader` would add (a cost to every API request on the same server) is not needed.
 */
export function stampPeerAddressesInServer(): void {
  (globalThis as Global)[STAMPED_BY_SERVER] = true;
  nonce();
}

/** Writes the socket's address over any client value of the header, for a request about to be handed to Next. */
export function stampPeerAddress(request: http.IncomingMessage): void {
  // Typed as always present, but undefined once the connection is gone.
  const socket: typeof request.socket | undefined = request.socket;
  request.headers[PEER_HEADER] = `${nonce()} ${socket instanceof TLSSocket ? 'tls' : 'tcp'} ${socket?.remoteAddress ?? ''}`;
}

export function installPeerAddressHeader(): void {
  const global = globalThis as Global;
  nonce();
  if (global[STAMPED_BY_SERVER] || global[PATCHED]) return;
  global[PATCHED] = true;
  for (const Server of [http.Server, https.Server]) {
    // Kept unbound on purpose: the patch below calls it with the server it runs on as `this`.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const emit = Server.prototype.emit;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
      // A request Node's parser refused gets the envelope, not a bare status line, where the server does not answer it.
      const [first, second] = args;
      if (
        event === 'clientError' &&
        this.listenerCount('clientError') === 0 &&
        first instanceof Error &&
        second instanceof Duplex
      ) {
        answerClientError(first, second);
        return true;
      }
      if (event === 'request' && first instanceof http.IncomingMessage) stampPeerAddress(first);
      const handled: unknown = Reflect.apply(emit, this, [event, ...args]);
      return handled === true;
    } as typeof emit;
  }
}

export function peerFromHeaders(headers: {
  get(name: string): string | null;
}): { address: string; encrypted: boolean } | undefined {
  const expected = (globalThis as Global)[KEY];
  const value = headers.get(PEER_HEADER);
  if (!expected || !value || !value.startsWith(`${expected} `)) return undefined;
  const [, transport, address] = value.split(' ');
  if (!address) return undefined;
  return { address, encrypted: transport === 'tls' };
}
