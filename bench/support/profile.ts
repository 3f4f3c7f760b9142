// Reads a V8 CPU profile (`node --cpu-prof`) and summarises where the time went: the top functions
// by self time, and self time grouped by package (next, pino, zod, …) or by our own folders.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Share of samples that were not idle. */
  busyShare: number;
  top: { frame: string; selfShare: number }[];
  byModule: { module: string; selfShare: number }[];
}

/** Where a frame's code lives: a package name, one of our folders, node internals, or V8's own buckets. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const ours = /\/(lib\/[^/]+|scripts|bench|app|\.next)\//.exec(url);
  if (ours) return ours[1];
  return url.replace(/^file:\/\//, '');
}

export function summariseProfile(file: string, topN = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  let idle = 0;
  const frames = new Map<string, number>();
  const modules = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const frame = `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    frames.set(frame, (frames.get(frame) ?? 0) + us);
    const owner = moduleOf(url, functionName);
    modules.set(owner, (modules.get(owner) ?? 0) + us);
  }
  const busy = total - idle;
  const share = (us: number) => (busy > 0 ? us / busy : 0);
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: total / 1000,
    busyShare: total > 0 ? busy / total : 0,
    top: sorted(frames)
      .slice(0, topN)
      .map(([frame, us]) => ({ frame, selfShare: share(us) })),
    byModule: sorted(modules)
      .slice(0, 10)
      .map(([module, us]) => ({ module, selfShare: share(us) })),
  };
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  return url.replace(/^file:\/\/.*?\/work\/main\//, '').replace(/^file:\/\//, '');
}

export function formatProfile(summary: ProfileSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const lines = [
    `CPU busy ${pct(summary.busyShare)} of ${(summary.totalMs / 1000).toFixed(1)} s profiled. Self time by module (share of busy time): ` +
      summary.byModule.map((m) => `${m.module} ${pct(m.selfShare)}`).join(', ') +
      '.',
    '',
    '| Self time | Frame |',
    '|---:|---|',
    ...summary.top.map((t) => `| ${pct(t.selfShare)} | \`${t.frame.replaceAll('|', '\\|')}\` |`),
  ];
  return lines.join('\n');
}
