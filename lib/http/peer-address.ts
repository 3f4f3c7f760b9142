import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { answerClientError } from './client-error';

// Next fills X-Forwarded-For from the socket only when the client sent none, so a route handler cannot know its peer.
// instrumentation.ts installs this in every server process: each request gets the socket's address under this header,
// written over any client value and prefixed with a per-process random nonce, so a client cannot forge it.

export const PEER_HEADER = 'x-carrier-peer';
const KEY = Symbol.for('carrier.peerAddressNonce');
type Global = typeof globalThis & { [KEY]?: string };

export function installPeerAddressHeader(): void {
  const global = globalThis as Global;
  if (global[KEY]) return;
  const nonce = randomBytes(16).toString('hex');
  global[KEY] = nonce;
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
      if (event === 'request' && first instanceof http.IncomingMessage) {
        // Typed as always present, but undefined once the connection is gone.
        const socket: typeof first.socket | undefined = first.socket;
        first.headers[PEER_HEADER] = `${nonce} ${socket instanceof TLSSocket ? 'tls' : 'tcp'} ${socket?.remoteAddress ?? ''}`;
      }
      const handled: unknown = Reflect.apply(emit, this, [event, ...args]);
      return handled === true;
    } as typeof emit;
  }
}

export function peerFromHeaders(headers: {
  get(name: string): string | null;
}): { address: string; encrypted: boolean } | undefined {
  const nonce = (globalThis as Global)[KEY];
  const value = headers.get(PEER_HEADER);
  if (!nonce || !value || !value.startsWith(`${nonce} `)) return undefined;
  const [, transport, address] = value.split(' ');
  if (!address) return undefined;
  return { address, encrypted: transport === 'tls' };
}
