import { createHash } from 'node:crypto';

/** SHA-256 of JSON with sorted keys and no undefined values: equal requests hash equal. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** Member names as JSON, by name: requests repeat a few dozen names thousands of times. Bounded, as names come from input. */
const quotedNames = new Map<string, string>();

/**
 * The text hashed. Stored hashes were made from it, so its output never changes (canonical-hash.test.ts holds the
 * first definition); it is written with loops, one string and quoted names kept, because a 5,000-package container
 * hashes 70,000 values per request. sort() without a comparator orders names by UTF-16 code units, as `<` does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
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
