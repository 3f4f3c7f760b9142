// A document render thread (lib/documents/render-pool.ts starts it from dist/document-render-thread.js): receives
// one job at a time as plain data (lib/documents/render-job.ts), renders it with the same renderers the serving
// thread would use, and hands the bytes back by transfer (no copy), or the error's message.
import { parentPort } from 'node:worker_threads';
import { runRenderJob, warmUp, type RenderJob } from '@/lib/documents/render-job';

if (!parentPort) throw new Error('scripts/document-render-thread.ts runs as a worker thread of the server');
const port = parentPort;

// Started for a render whose data is being read meanwhile: get ready for it (messages wait until this is done).
void warmUp().catch(() => undefined);

port.on('message', ({ id, job }: { id: number; job: RenderJob }) => {
  runRenderJob(job).then(
    (bytes) => port.postMessage({ id, bytes }, [bytes.buffer as ArrayBuffer]),
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id, error: { message: failure.message, stack: failure.stack } });
    },
  );
});
