// `next start` (START_MODE=next) makes a URL of every request target and answers one that is no path (`OPTIONS *`,
// `GET *`) with a plain-text 500. Loaded into its process (`--import`), this answers them as `npm start`'s server
// does, before Next sees them.
import http from 'node:http';
import { answerOddTarget } from '@/lib/http/node-adapter';

// eslint-disable-next-line @typescript-eslint/unbound-method -- called with the server as `this` below
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitRequest(this: http.Server, event: string | symbol, ...args: unknown[]) {
  if (event === 'request' && answerOddTarget(args[0] as http.IncomingMessage, args[1] as http.ServerResponse)) return true;
  return Reflect.apply(emit, this, [event, ...args]) as boolean;
} as typeof emit;
