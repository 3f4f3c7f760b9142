import { chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { isSpilled, SpilledDocument, spillDirectory } from './spilled-document';

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
    await expect(document.bytes()).rejects.toThrow(/once/);
  });

  it('as bytes, once: the file goes', async () => {
    const kept = spilled('%PDF-1.7 whole');
    expect(Buffer.from(await kept.bytes()).toString()).toBe('%PDF-1.7 whole');
    expect(existsSync(kept.file)).toBe(false);
    await expect(kept.bytes()).rejects.toThrow(/once/);
  });

  it("is known by its mark, as another bundle's copy of the class is", () => {
    expect(isSpilled(spilled('x'))).toBe(true);
    const otherCopy = { [Symbol.for('carrier.spilledDocument')]: true, file: '/nowhere', size: 1 };
    expect(isSpilled(otherCopy)).toBe(true);
    expect(isSpilled({ file: '/nowhere', size: 1 })).toBe(false);
    expect(isSpilled(new Uint8Array(4))).toBe(false);
    expect(isSpilled(null)).toBe(false);
  });

  it('a stream destroyed before it is read removes the file', async () => {
    const document = spilled('left unread');
    document.stream().destroy();
    await expect.poll(() => existsSync(document.file)).toBe(false);
  });

  it("leaves alone what is not this user's directory: a link, a file, another user's directory", () => {
    const target = mkdtempSync(path.join(tmpdir(), 'spill-link-target-'));
    writeFileSync(path.join(target, 'keep'), 'x');
    const link = path.join(tmpdir(), `carrier-documents-${2 ** 22 + 2}-link00`);
    const file = path.join(tmpdir(), `carrier-documents-${2 ** 22 + 3}-file00`);
    const others = path.join(tmpdir(), `carrier-documents-${2 ** 22 + 4}-other0`);
    symlinkSync(target, link);
    writeFileSync(file, 'x');
    mkdirSync(others);
    // Only root can give a directory away; elsewhere the link and the file still hold the point.
    const root = process.getuid?.() === 0;
    if (root) chownSync(others, 65534, 65534);
    let made = '';
    try {
      made = spillDirectory();
      expect(existsSync(path.join(target, 'keep'))).toBe(true);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(existsSync(file)).toBe(true);
      if (root) expect(existsSync(others)).toBe(true);
    } finally {
      for (const entry of [link, file, others, target, made]) rmSync(entry, { recursive: true, force: true });
    }
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
