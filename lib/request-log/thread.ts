import 'server-only';
import { Worker } from 'node:worker_threads';
import { log } from '@/lib/log';
import { queueLine, setRequestLogSink, type RequestLogLine } from './writer';

// The request log off the serving thread (the log must cost the rate and package benchmarks < 5 %).
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
 * Lines are handed over every HANDOVER_MS, or at once when HANDOVER_LINES wait; not once per turn of the event loop.
 * A package manifest waits on the database, so a turn ends about one request: a hand-over per turn was a message, and
 * a wake-up of the log's thread, per request, on cores already busy serving. In the server a package line cost 84 µs
 * of the machine's CPU, against 22 µs through the same writer in isolation; batched, 73, 26 and 16 µs in three runs,
 * and the package benchmark's loss went from 7.8 % to 4.6, 1.6 and 2.3 % (docs/decisions/request-log.md, 2026-11-28).
 * A line held 20 ms is still young when it goes (a scavenge copies it at most once).
 */
const HANDOVER_MS = 20;
const HANDOVER_LINES = 256;

/**
 * Starts the log's thread from its compiled script and sends every line recorded in this process to it, until
 * closeRequestLog() (lib/request-log/writer.ts) writes the last of them and ends the thread.
 */
export function startRequestLogThread(script: string): void {
  const worker = new Worker(script);
  let pending: RequestLogLine[] = [];
  /** Set while lines wait for their hand-over. */
  let timer: NodeJS.Timeout | undefined;
  let alive = true;
  let nextId = 1;
  const waiting = new Map<number, () => void>();

  const send = () => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
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
      if (pending.length >= HANDOVER_LINES) {
        send();
      } else if (!timer) {
        timer = setTimeout(send, HANDOVER_MS);
        timer.unref();
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
