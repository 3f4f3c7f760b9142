import 'server-only';
import pg from 'pg';
import { execute, queryRows, sql } from '@/lib/sql';
import { ENCRYPTED_PREFIX, openSecret, sealSecret, storedKeyId, type Keyring } from './secret-box';

// The data step of migration 20261123020100_webhook_secret_overlap (SQL cannot encrypt under an application key):
// encrypts plain secrets and re-encrypts old-key ones. Each row is a compare-and-set on the value read, so it is
// safe with several instances starting at once and with rotations meanwhile.

const BATCH = 500;
const COLUMNS = ['secret', 'previous_secret'] as const;

export interface EncryptStoredSecretsResult {
  converted: number;
  /** Rows left as they are: a value no configured key opens (reported, never destroyed). */
  unreadable: string[];
}

export async function encryptStoredSecrets(options: {
  databaseUrl: string;
  keyring: Keyring;
}): Promise<EncryptStoredSecretsResult> {
  const { keyring } = options;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const result: EncryptStoredSecretsResult = { converted: 0, unreadable: [] };
  try {
    for (const name of COLUMNS) {
      const column = sql.id(name);
      const current = `${ENCRYPTED_PREFIX}${keyring.current.id}:%`;
      let after = '';
      for (;;) {
        // Keyset pagination by id: rows that cannot be converted are passed, not read again forever.
        const rows = await queryRows(
          client,
          sql<{ id: string; value: string }>`
            SELECT id, ${column} AS value FROM webhook_endpoints
            WHERE id > ${after} AND ${column} IS NOT NULL AND ${column} NOT LIKE ${current}
            ORDER BY id LIMIT ${BATCH}::int`,
        );
        for (const row of rows) {
          let plain: string;
          try {
            plain = openSecret(keyring, row.id, row.value);
          } catch {
            result.unreadable.push(`${row.id} (${name}, key ${storedKeyId(row.value) ?? 'unknown'})`);
            continue;
          }
          result.converted += await execute(
            client,
            sql`UPDATE webhook_endpoints SET ${column} = ${sealSecret(keyring, row.id, plain)} WHERE id = ${row.id} AND ${column} = ${row.value}`,
          );
        }
        const last = rows.at(-1);
        if (!last || rows.length < BATCH) break;
        after = last.id;
      }
    }
  } finally {
    await client.end();
  }
  return result;
}
