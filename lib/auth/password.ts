import 'server-only';
import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's minimum recommended cost: 19 MiB, 2 passes.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Verified against when the e-mail is unknown, so timing does not reveal which e-mails have accounts.
const DUMMY_HASH = hash(`dummy-${Math.random()}`, OPTIONS);

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(options: { hash: string | null; password: string }): Promise<boolean> {
  if (!options.hash) {
    await verify(await DUMMY_HASH, options.password).catch(() => false);
    return false;
  }
  return verify(options.hash, options.password).catch(() => false);
}
