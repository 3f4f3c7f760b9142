/** A process with this pid exists: running, or exited and not yet reaped (a zombie); EPERM means it runs as another user. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
