import 'server-only';
import { Worker } from 'node:worker_threads';
import { log } from '@/lib/log';
import { queueLine, setRequestLogSink, type RequestLogLine } from './writer';

// Redaction, JSON and batching run on the log's own thread and heap (server/request-log-thread.ts), off the serving thread,
// where their garbage collection cost the most. If it dies, lines fall back to this thread's writer: never lost, never a 500.
// Messages, in order on one port: to the thread { lines }, { flush, id }, { close, id }; from it { done, id }.

type Reply = { done: number };

// Handed over in batches: a turn of the event loop is about one request, and a wake-up per request cost busy cores.
const HANDOVER_MS = 20;
const HANDOVER_LINES = 256;

export function startRequestLogThread(script: string): void {
  const worker = new Worker(script);
  let pending: RequestLogLine[] = [];
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
