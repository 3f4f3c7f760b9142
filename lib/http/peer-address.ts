import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { answerClientError } from './client-error';

// Next's route handlers get a Web Request: no socket, so no peer address. Next 16 itself only
// fills X-Forwarded-For from the socket when the client sent none
// (`req.headers['x-forwarded-for'] ??= socket.remoteAddress`, next/dist/server/base-server.js), so
// a client-sent value reaches the handler as it was sent, and the socket's address is lost.
//
// So, in every server process that runs Next (`next start`, `next dev`, the production server),
// instrumentation.ts installs this: each incoming request gets a header holding the socket's
// address, written over anything the client sent under that name, and prefixed with a random value
// made once per process. A route handler believes the header only when the prefix is this
// process's, so a client cannot forge it (not even for requests that arrived before the patch was
// installed, which simply carry no valid header).

export const PEER_HEADER = 'x-carrier-peer';
const KEY = Symbol.for('carrier.peerAddressNonce');
type Global = typeof globalThis & { [KEY]?: string };

/** Installs the header writer on every node:http and node:https server of this process, once. */
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
      // A request Node's parser refused (headers over 16 KB, say) gets the envelope, not a bare status
      // line, on servers that do not answer it themselves (plain `next start`; the production server does).
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

/** The socket's peer as the header writer recorded it, or undefined when the header is absent or forged. */
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
