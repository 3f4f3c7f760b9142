import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import type { TImportMappingRequest } from '@/lib/schemas/import-mapping';
import type { TImportMappingResponse } from '@/lib/schemas/portal-responses';

// Past this many headers, the stored mapping starts again from the latest import's.
export const IMPORT_MAPPING_STORED_MAX = 1_000;

function columnsOf(value: unknown): Record<string, string> {
  const columns: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [header, field] of Object.entries(value)) if (typeof field === 'string') columns[header] = field;
  }
  return columns;
}

export async function getImportMapping(accountId: string): Promise<TImportMappingResponse> {
  const row = await queryRow<{ columns: unknown }>(
    pgPool(),
    sql`SELECT columns FROM import_mappings WHERE account_id = ${accountId}::uuid`,
  );
  return { columns: columnsOf(row?.columns) };
}

// Merged in one statement, so that two tabs' imports both land.
export async function rememberImportMapping(accountId: string, request: TImportMappingRequest): Promise<TImportMappingResponse> {
  const row = await queryRow<{ columns: unknown }>(
    pgPool(),
    sql`
      INSERT INTO import_mappings AS m (account_id, columns) VALUES (${accountId}::uuid, ${JSON.stringify(request.columns)}::jsonb)
      ON CONFLICT (account_id) DO UPDATE
      SET columns = CASE
            WHEN (SELECT count(*) FROM jsonb_object_keys(m.columns || excluded.columns)) <= ${IMPORT_MAPPING_STORED_MAX}::int
            THEN m.columns || excluded.columns ELSE excluded.columns END,
          updated_at = now()
      RETURNING columns`,
  );
  return { columns: columnsOf(row?.columns) };
}
