import 'server-only';
import { env } from '@/lib/env';
import { quoteKeyFrom, type QuoteKey } from './quote-id';

let keys: QuoteKey[] | undefined;

/**
 * The keys quote ids are signed (first) and checked under, derived from WEBHOOK_SECRETS_KEY and its earlier keys: the
 * one secret every instance already shares (`npm start` makes one for the embedded database; production must set it).
 */
export function quoteKeys(): QuoteKey[] {
  if (keys) return keys;
  const { WEBHOOK_SECRETS_KEY, WEBHOOK_SECRETS_OLD_KEYS } = env();
  if (!WEBHOOK_SECRETS_KEY) throw new Error('WEBHOOK_SECRETS_KEY is not set: quote ids cannot be signed');
  const old = (WEBHOOK_SECRETS_OLD_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  keys = [WEBHOOK_SECRETS_KEY, ...old].map(quoteKeyFrom);
  return keys;
}
