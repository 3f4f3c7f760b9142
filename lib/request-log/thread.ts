import 'server-only';
import { Worker } from 'node:worker_threads';
import { log } from '@/lib/log';
import { queueLine, setRequestLogSink, type RequestLogLine } from './writer';

// The request log off the serving thread (issue 16: the log must cost the rate and package benchmarks < 5 %).
// Written on the serving thread, a line cost its redaction, its JSON, its share of a multi-megabyte INSERT
// parameter and, the largest part, the garbage collections of a heap where every line lives until its batch
// is written (bench/RESULTS.md, request log). Here the serving thread only hands lines over, a batch per turn
// of its event loop; the log's thread (scripts/request-log-thread.ts, the same writer, lib/request-log/writer.ts)
// redacts, batches and writes them on a core of its own, with a heap of its own.
//
// Messages, in order on one port: to the thread { lines }, { flush, id }, { close, id }; from it { done, id }.
// If the thread dies, lines go back to the serving thread's own writer (said once in the log): a log line is
// never worth a request, nor lost for want of a thread.

type Reply = { done: number };

/**
 * Starts the log's thread from its compiled script and sends every line recorded in this process to it, until
 * closeRequestLog() (lib/request-log/writer.ts) writes the last of them and ends the thread.
 */
export function startRequestLogThread(script: string): void {
  const worker = new Worker(script);
  let pending: RequestLogLine[] = [];
  let scheduled = false;
  let alive = true;
  let nextId = 1;
  const waiting = new Map<number, () => void>();

  const send = () => {
    scheduled = false;
    if (pending.length === 0 || !alive) return;
    const lines = pending;
    pending = [];
    worker.postMessage({ lines });
  };
  const ask = (kind: 'flush' | 'close'): Promise<void> => {
    send();
    if (!alive) return Promise.resolve();
    const id = nextId++;
    return new Promise<void>((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ [kind]: true, id });
    });
  };
  // Lines that reached a thread that then died are gone with it; those not yet sent go to this thread's writer.
  const fallBack = (why: string, error?: unknown) => {
    if (!alive) return;
    alive = false;
    setRequestLogSink(undefined);
    log.error({ err: error }, `request log thread ${why}: lines are written by the serving thread from now on`);
    const left = pending;
    pending = [];
    left.forEach(queueLine);
    for (const resolve of waiting.values()) resolve();
    waiting.clear();
  };

  worker.on('message', (message: Reply) => {
    waiting.get(message.done)?.();
    waiting.delete(message.done);
  });
  worker.on('error', (error) => fallBack('failed', error));
  worker.on('exit', (code) => fallBack(`exited (${code})`));
  // The thread must not keep the process alive by itself; the server's stop closes it.
  worker.unref();
  log.info({ threadId: worker.threadId }, 'request log thread started');

  setRequestLogSink({
    post(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(send);
      }
    },
    flush: () => ask('flush'),
    close: async () => {
      await ask('close');
      alive = false;
      await worker.terminate();
    },
  });
}
