import { createHash } from 'node:crypto';

export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

// A part's canonicalJson() text, spliced in as it is: a caller that also stores a part as its canonical JSON (a
// container's packages) serialises it once.
export class CanonicalText {
  constructor(readonly text: string) {}
}

const quotedNames = new Map<string, string>();

// Stored hashes were made from this text, so its output never changes (canonical-hash.test.ts holds the definition).
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof CanonicalText) return value.text;
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const name of Object.keys(record).sort()) {
    const item = record[name];
    if (item === undefined) continue;
    let quoted = quotedNames.get(name);
    if (quoted === undefined) {
      quoted = JSON.stringify(name);
      if (quotedNames.size < 1_000) quotedNames.set(name, quoted);
    }
    out += (out.length === 1 ? '' : ',') + quoted + ':' + (typeof item === 'string' ? JSON.stringify(item) : canonicalJson(item));
  }
  return `${out}}`;
}
