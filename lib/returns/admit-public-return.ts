import 'server-only';
import { createHash } from 'node:crypto';
import { consume, limiters, rateLimited } from '@/lib/auth/limiters';
import { addressKey } from '@/lib/net/address-key';

// The public return's proof is a destination postal code, a small space (100,000 US ZIPs): attempts are counted per
// client address, and wrong answers per package from any address, so that neither one address nor many can walk the
// codes of one parcel. Unknown numbers are counted like known ones, so a 429 tells nothing about which exist.

const refusal = (ms: number) =>
  rateLimited((s) => `Too many return attempts. Try again in ${s < 60 ? `${s} seconds` : `${Math.ceil(s / 60)} minutes`}.`, ms);

/** Every attempt, right or wrong, from this address. */
export async function admitReturnAttempt(address: string): Promise<void> {
  const refused = await consume(limiters().returnAddress, addressKey(address));
  if (refused) throw refusal(refused.msBeforeNext);
}

/** The keys a wrong answer is counted under: each live package the identifier names, else the identifier itself. */
export function packageKeys(id: string, barcodes: readonly string[]): string[] {
  if (barcodes.length > 0) return [...new Set(barcodes)];
  return [`id:${createHash('sha256').update(id.trim().toLowerCase()).digest('base64url').slice(0, 32)}`];
}

/** Refuses once any of the packages has had its wrong answers this hour, before the answer is even checked. */
export async function admitPackageAttempt(keys: readonly string[]): Promise<void> {
  const limiter = limiters().returnPackage;
  for (const key of keys) {
    const used = await limiter.get(key);
    if (used && used.consumedPoints >= limiter.points) throw refusal(used.msBeforeNext);
  }
}

export async function countWrongAnswer(keys: readonly string[]): Promise<void> {
  for (const key of keys) await consume(limiters().returnPackage, key);
}
