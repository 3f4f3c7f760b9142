// The request log's thread (lib/request-log/thread.ts starts it from dist/request-log-thread.js): receives the
// serving thread's lines and writes them with the one writer, lib/request-log/writer.ts, in its own buffer, on
// its own connection, with its own heap.
import { parentPort } from 'node:worker_threads';
import { closeRequestLog, flushQueued, queueLine, type RequestLogLine } from '@/lib/request-log/writer';

type Message = { lines: RequestLogLine[] } | { flush: true; id: number } | { close: true; id: number };

if (!parentPort) throw new Error('server/request-log-thread.ts runs as a worker thread of the server');
const port = parentPort;

port.on('message', (message: Message) => {
  if ('lines' in message) {
    for (const line of message.lines) queueLine(line);
    return;
  }
  const done = () => port.postMessage({ done: message.id });
  // Neither a flush nor a close may leave the server waiting: the writer keeps what the database refused.
  ('close' in message ? closeRequestLog() : flushQueued()).then(done, done);
});
