import 'server-only';
import { close, lstatSync, mkdtempSync, open, read, readdirSync, rmSync, unlink, unlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { processExists } from '@/lib/process-exists';

// A large document a render thread wrote to a file of its own, for the serving thread to send without ever holding it
// whole (docs/decisions/document-rendering.md): each 5 MB PDF handed over as bytes made the serving isolate's
// ArrayBuffers grow by its size, and V8 answered with mark-compacts of the whole serving heap, the rate quote's p99.
// Sent through one buffer of PIECE_BYTES, read again for each piece: the serving thread allocates no more per document.

const PIECE_BYTES = 256 * 1024;
const DIRECTORY_PREFIX = 'carrier-documents-';
/**
 * The process has one render pool, shared by the API's bundle and Next's (render-pool.ts), and each bundle has its own
 * copy of this class: a document made by one is known to the other by this mark, never by instanceof.
 */
const MARK = Symbol.for('carrier.spilledDocument');

export class SpilledDocument {
  readonly [MARK] = true;
  private taken = false;

  constructor(
    readonly file: string,
    readonly size: number,
  ) {}

  /**
   * The document as a stream, once; the file is removed as soon as it is open. One buffer serves every piece: a piece
   * is pushed only when the consumer asks for the next, and Node's pipe (Fastify pipes a stream to the response) asks
   * only once the response has taken the last: a write of a piece at or above the socket's high-water mark returns
   * false, and the pipe waits for 'drain', which comes once it is written. A short piece before the end (a read the
   * file system cut short) would be written below that mark, so it goes as a copy. e2e/api/documents-load.test.ts reads
   * one slowly and compares every byte.
   */
  stream(): Readable {
    const file = this.take();
    const size = this.size;
    const piece = Buffer.allocUnsafeSlow(PIECE_BYTES);
    let fd: number | undefined;
    let position = 0;
    const closeFile = () => {
      if (fd !== undefined) close(fd, () => undefined);
      fd = undefined;
    };
    const next = (stream: Readable) => {
      read(fd!, piece, 0, PIECE_BYTES, position, (error, count) => {
        if (stream.destroyed) return;
        if (error) return stream.destroy(error);
        position += count;
        if (count === 0) {
          closeFile();
          stream.push(null);
        } else if (count < PIECE_BYTES && position < size) stream.push(Buffer.from(piece.subarray(0, count)));
        else stream.push(piece.subarray(0, count));
      });
    };
    return new Readable({
      highWaterMark: 0,
      read() {
        if (fd !== undefined) return next(this);
        open(file, 'r', (error, opened) => {
          if (!error) unlink(file, () => undefined);
          if (this.destroyed) return error ? undefined : close(opened, () => undefined);
          if (error) return this.destroy(error);
          fd = opened;
          next(this);
        });
      },
      destroy(error, callback) {
        // Not opened yet (the client left first): the file goes now (an open under way removes it too).
        if (fd === undefined) unlink(file, () => undefined);
        closeFile();
        callback(error);
      },
    });
  }

  /** The whole document as bytes (for a caller that needs them: to keep it, or the portal's routes), once; the file goes. */
  async bytes(): Promise<Uint8Array> {
    const file = this.take();
    try {
      return await readFile(file);
    } finally {
      removeSpilled(file);
    }
  }

  private take(): string {
    if (this.taken) throw new Error('a spilled document is read once');
    this.taken = true;
    return this.file;
  }
}

export function isSpilled(value: unknown): value is SpilledDocument {
  return typeof value === 'object' && value !== null && (value as { [MARK]?: unknown })[MARK] === true;
}

/** A document as a render returns it: bytes, or spilled to a file when large and the caller can send one. */
export type RenderedDocument = Uint8Array | SpilledDocument;

/**
 * A directory of this process's for spilled documents, made with a name no one could have chosen before (mkdtemp: mode
 * 0700, never an existing directory or a link another user planted). Then this user's directories of processes that
 * no longer run are removed: a file is removed once opened, so only a process that died between a render and its
 * answer, or stopped without closing its pool, leaves one. Anything else under the prefix (another user's, a link, a
 * file) is left alone, and a failure to remove one never fails the render.
 */
export function spillDirectory(): string {
  const root = tmpdir();
  const mine = mkdtempSync(path.join(root, `${DIRECTORY_PREFIX}${process.pid}-`));
  const uid = process.getuid?.();
  for (const name of readdirSync(root)) {
    if (!name.startsWith(DIRECTORY_PREFIX)) continue;
    const pid = Number(name.slice(DIRECTORY_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || processExists(pid)) continue;
    const entry = path.join(root, name);
    try {
      const stat = lstatSync(entry);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      rmSync(entry, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return mine;
}

/** Removes a file a render wrote (or was writing) for a caller that no longer waits for it. */
export function removeSpilled(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already, or never written
  }
}
