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

/**
 * Sorted key orders by the object's own key order: a container's thousand packages share one or two orders, and
 * sorting each one's keys afresh was most of the serialisation's time. Found by the first key, then compared whole.
 */
const sortedOrders = new Map<string, { keys: string[]; sorted: string[] }[]>();
let cachedOrders = 0;
// Bounded in count and in text, so objects of odd keys cannot make it hold much; emptied when full, so the orders of
// the day's traffic are the ones it holds.
const CACHED_ORDERS_MAX = 256;
const CACHED_ORDER_MAX_CHARS = 2_048;

function remember(first: string, keys: string[], sorted: string[]): void {
  let chars = 0;
  for (const key of keys) chars += key.length;
  if (chars > CACHED_ORDER_MAX_CHARS) return;
  if (cachedOrders >= CACHED_ORDERS_MAX) {
    sortedOrders.clear();
    cachedOrders = 0;
  }
  cachedOrders += 1;
  const known = sortedOrders.get(first);
  if (known) known.push({ keys, sorted });
  else sortedOrders.set(first, [{ keys, sorted }]);
}

function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length < 2) return keys;
  const first = keys[0]!;
  const known = sortedOrders.get(first);
  if (known)
    for (const order of known) {
      if (order.keys.length !== keys.length) continue;
      let same = true;
      for (let i = 1; i < keys.length && same; i++) same = order.keys[i] === keys[i];
      if (same) return order.sorted;
    }
  const sorted = keys.slice().sort();
  remember(first, keys, sorted);
  return sorted;
}

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
  for (const name of sortedKeys(record)) {
    const item = record[name];
    if (item === undefined) continue;
    let quoted = quotedNames.get(name);
    if (quoted === undefined) {
      quoted = JSON.stringify(name);
      if (quotedNames.size < 1_000 && name.length <= 64) quotedNames.set(name, quoted);
    }
    out += (out.length === 1 ? '' : ',') + quoted + ':' + (typeof item === 'string' ? JSON.stringify(item) : canonicalJson(item));
  }
  return `${out}}`;
}
