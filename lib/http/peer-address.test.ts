import http from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  PEER_HEADER,
  installPeerAddressHeader,
  peerFromHeaders,
  stampPeerAddress,
  stampPeerAddressesInServer,
} from './peer-address';

function requestFrom(remoteAddress: string | undefined, headers: Record<string, string> = {}): http.IncomingMessage {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
  const request = new http.IncomingMessage(socket);
  request.headers = { ...headers };
  return request;
}

const headersOf = (request: http.IncomingMessage) => ({
  get: (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : null;
  },
});

describe('the peer address handed to Next', () => {
  it('is the socket’s, written over what the client sent, and read back only with this process’s nonce', () => {
    const request = requestFrom('203.0.113.9', { [PEER_HEADER]: 'forged tcp 10.0.0.1' });
    expect(peerFromHeaders(headersOf(request))).toBeUndefined();
    stampPeerAddress(request);
    expect(peerFromHeaders(headersOf(request))).toEqual({ address: '203.0.113.9', encrypted: false });
    // The same shape with another nonce is a client's forgery.
    const [, ...rest] = String(request.headers[PEER_HEADER]).split(' ');
    const forged = requestFrom('203.0.113.9', { [PEER_HEADER]: ['0'.repeat(32), ...rest].join(' ') });
    expect(peerFromHeaders(headersOf(forged))).toBeUndefined();
  });

  it('of a connection already gone is no address at all', () => {
    const request = requestFrom(undefined);
    stampPeerAddress(request);
    expect(peerFromHeaders(headersOf(request))).toBeUndefined();
  });

  it('leaves Node’s servers unpatched where a server stamps the requests it hands over', () => {
    const emitOf = () => Object.getOwnPropertyDescriptor(http.Server.prototype, 'emit')?.value as unknown;
    const before = emitOf();
    stampPeerAddressesInServer();
    installPeerAddressHeader();
    expect(emitOf()).toBe(before);
  });
});
