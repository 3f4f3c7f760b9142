import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { documentBytes, SpilledDocument, spillDirectory } from './spilled-document';

// A spilled document is read once, as a stream or as bytes, and its file is gone afterwards; the directories of
// processes that no longer run are removed.

const directory = spillDirectory();

function spilled(content: string): SpilledDocument {
  const file = path.join(directory, `${Math.random().toString(36).slice(2)}.document`);
  writeFileSync(file, content);
  return new SpilledDocument(file, Buffer.byteLength(content));
}

describe('spilled documents', () => {
  it('streams a file larger than one piece whole, removes it once open, and is read only once', async () => {
    const content = 'x'.repeat(600 * 1024) + 'end';
    const document = spilled(content);
    const stream = document.stream();
    expect(await text(stream)).toBe(content);
    expect(existsSync(document.file)).toBe(false);
    expect(() => document.stream()).toThrow(/once/);
    expect(() => document.bytes()).toThrow(/once/);
  });

  it('as bytes, or discarded: the file goes either way', () => {
    const kept = spilled('%PDF-1.7 whole');
    expect(Buffer.from(documentBytes(kept)).toString()).toBe('%PDF-1.7 whole');
    expect(existsSync(kept.file)).toBe(false);
    const dropped = spilled('never sent');
    dropped.discard();
    expect(existsSync(dropped.file)).toBe(false);
  });

  it('a stream destroyed before it is read removes the file', async () => {
    const document = spilled('left unread');
    document.stream().destroy();
    await expect.poll(() => existsSync(document.file)).toBe(false);
  });

  it("removes the directory of a process that no longer runs, not a running one's", () => {
    // pid_max is at most 2^22 on Linux: no process has this pid.
    const dead = path.join(tmpdir(), `carrier-documents-${2 ** 22 + 1}-x1y2z3`);
    const running = path.join(tmpdir(), `carrier-documents-${process.ppid}-x1y2z3`);
    const hadRunning = existsSync(running);
    mkdirSync(dead, { recursive: true });
    writeFileSync(path.join(dead, 'left.document'), 'x');
    mkdirSync(running, { recursive: true });
    let made = '';
    try {
      made = spillDirectory();
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(running)).toBe(true);
      expect(path.basename(made)).toMatch(new RegExp(`^carrier-documents-${process.pid}-\\w{6}$`));
      expect(statSync(made).mode & 0o777).toBe(0o700);
    } finally {
      if (!hadRunning) rmSync(running, { recursive: true, force: true });
      rmSync(made, { recursive: true, force: true });
    }
  });
});
