import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { removeEmbeddedDatabase } from '../../../scripts/database.mjs';
import { processExists } from '@/lib/process-exists';

// What the reliability tests that run `npm start` on an embedded PostgreSQL of their own (clean-stop, killed-start)
// need to look at it and to clean up after it: where its cluster is, whether a process or a port is still there.

/**
 * Where the cluster of `dataDir` really is: in the project, unless a start as root placed it where
 * the `postgres` user can reach it (a clone in a 0700 directory, as CI's is), remembered in `<dataDir>.json`.
 */
export function clusterDir(dataDir: string): string {
  const memory = `${dataDir}.json`;
  const placed = existsSync(memory) ? (JSON.parse(readFileSync(memory, 'utf8')) as { dataDir?: string }).dataDir : undefined;
  return placed ?? dataDir;
}

/** The postmaster's pid, from its pid file. */
export function postmasterPid(dataDir: string): number {
  return Number(readFileSync(`${clusterDir(dataDir)}/postmaster.pid`, 'utf8').split('\n')[0]);
}

/** A process with this pid exists (a zombie, exited but not yet reaped, still does). */
export const alive = processExists;

/** A process with this pid exists and has not exited: a zombie (exited, not yet reaped by its new parent) is not running. */
export function running(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true; // no /proc: the signal check says it exists
  }
}

/** Something accepts connections on this port of 127.0.0.1. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Each data directory's postmaster left behind by a failure is stopped, then its data removed (an afterEach's work). */
export async function removeEmbeddedLeftovers(dataDirs: string[]): Promise<void> {
  for (const dataDir of dataDirs.splice(0)) {
    const pidFile = `${clusterDir(dataDir)}/postmaster.pid`;
    if (existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
      } catch {
        // gone
      }
      await new Promise((r) => setTimeout(r, 2_000));
    }
    await removeEmbeddedDatabase(dataDir);
  }
}
