// An account that has just written reads from the primary for a while longer than replica lag. Per process: the
// balancer keeps a portal session on one host, so the writer's next reads come to the process that saw its write.

export const READ_YOUR_WRITES_MS = 5_000;
const MAX_TRACKED = 50_000;

export class RecentWriters {
  private readonly until = new Map<string, number>();

  constructor(private readonly windowMs = READ_YOUR_WRITES_MS) {}

  noteWrite(key: string, now = Date.now()): void {
    if (this.until.size >= MAX_TRACKED) this.prune(now);
    this.until.delete(key); // re-inserted last: the map stays in expiry order
    this.until.set(key, now + this.windowMs);
  }

  wroteRecently(key: string, now = Date.now()): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.until.delete(key);
    return false;
  }

  private prune(now: number): void {
    for (const [key, until] of this.until) {
      if (until > now && this.until.size < MAX_TRACKED) break;
      this.until.delete(key);
    }
  }
}
