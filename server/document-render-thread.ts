// A document render thread (lib/documents/render-pool.ts starts it from dist/document-render-thread.js): receives
// one job at a time as plain data (lib/documents/render-job.ts), reads the manifest's packages it names on a
// connection of its own (lib/documents/package-bytes.ts), renders it with the same renderers the serving thread would
// use, and hands the bytes back by transfer (no copy), a large document as a file it wrote when the
// caller sends files (lib/documents/spilled-document.ts), or the error's message.
import { execFileSync } from 'node:child_process';
import { readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { connectionReader } from '@/lib/documents/package-bytes';
import { runRenderJob, warmUp } from '@/lib/documents/render-job';
import { readRequest, SPILL_BYTES, type RenderRequest } from '@/lib/documents/render-request';

if (!parentPort) throw new Error('server/document-render-thread.ts runs as a worker thread of the server');
const port = parentPort;

// This thread yields the CPU to everything else of the machine's: SCHED_IDLE by default (below), and its nice value
// (DOCUMENT_RENDER_NICE, 10) once the pool raises it or under DOCUMENT_RENDER_POLICY=nice; on Linux a nice value is a
// thread's own. On two cores a render took one whole core at the serving thread's priority, and the serving thread,
// PostgreSQL and the clients shared the other.
const { nice, policy, databaseUrl } = (workerData ?? {}) as { nice?: number; policy?: 'idle' | 'nice'; databaseUrl?: string };
if (nice) {
  try {
    setPriority(0, nice);
  } catch {
    // not permitted here: renders at the serving thread's priority
  }
}
// SCHED_IDLE: a thread of any other policy that wakes takes the core at once, where a nice thread may first finish its
// time slice. Node has no call for it; `chrt` (util-linux) sets it for this thread's id. Without chrt, the nice value.
// The pool raises a render that runs long back to the nice value (a saturated machine would otherwise starve it), and
// asks with the next job for idle again.
let tid = '';
function runIdle(): void {
  try {
    tid ||= readlinkSync('/proc/thread-self').split('/').at(-1) ?? '';
    execFileSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // not Linux, or no chrt: the nice value above
  }
}
if (policy === 'idle') {
  runIdle();
  if (tid) port.postMessage({ tid });
}

// Started for a render whose data is being read meanwhile: get ready for it (messages wait until this is done).
void warmUp().catch(() => undefined);

const readPackages = databaseUrl
  ? connectionReader(databaseUrl)
  : () => Promise.reject(new Error('this render thread was given no database to read packages from'));

// spill: the file a large document goes to, instead of coming back as bytes.
port.on('message', ({ id, job, idleAgain, spill }: { id: number; job: RenderRequest; idleAgain?: boolean; spill?: string }) => {
  if (idleAgain) runIdle();
  readRequest(job, readPackages)
    .then(runRenderJob)
    .then(
      (bytes) => {
        if (spill && bytes.byteLength >= SPILL_BYTES) {
          try {
            writeFileSync(spill, bytes, { mode: 0o600 });
            return port.postMessage({ id, file: spill, size: bytes.byteLength });
          } catch {
            // No room, or the directory is gone: the bytes, as for a small document.
            rmSync(spill, { force: true });
          }
        }
        port.postMessage({ id, bytes }, [bytes.buffer as ArrayBuffer]);
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        const { code } = failure as { code?: unknown };
        port.postMessage({
          id,
          error: { message: failure.message, stack: failure.stack, code: typeof code === 'string' ? code : undefined },
        });
      },
    );
});
