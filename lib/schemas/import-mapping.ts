import { z } from 'zod';
import { ZContainerDetail } from './container-manifest';
import { CUSTOMS_CELLS } from './customs-cells';
import { refuseUnknownFields } from './unknown-fields';

// The manifest builder's remembered column mapping (lib/spreadsheets/import-mapping.ts): normalised headers
// (lower-case letters and digits, lib/spreadsheets/column-names.ts normaliseHeader) to a package field, or ''
// for a column the shipper chose to ignore.

export const IMPORT_MAPPING_COLUMNS_MAX = 200;
const FIELDS = new Set([...Object.keys(ZContainerDetail.shape), ...CUSTOMS_CELLS]);

export const ZImportMappingRequest = z
  .looseObject({
    columns: z
      .record(z.string(), z.unknown(), { error: 'must be an object of normalised headers to package field names' })
      .transform((columns, ctx): Record<string, string> => {
        const entries = Object.entries(columns);
        if (entries.length > IMPORT_MAPPING_COLUMNS_MAX) {
          ctx.addIssue({
            code: 'custom',
            message: `must hold at most ${IMPORT_MAPPING_COLUMNS_MAX} columns (got ${entries.length})`,
          });
          return z.NEVER;
        }
        const out: Record<string, string> = {};
        for (const [header, field] of entries) {
          if (!/^[a-z0-9]{1,100}$/.test(header)) {
            // The header is named by its first characters only: it may be anything a client sends.
            ctx.addIssue({
              code: 'custom',
              path: [header.slice(0, 40)],
              message: 'must be a normalised header: 1 to 100 lower-case letters and digits',
            });
          } else if (typeof field !== 'string' || (field !== '' && !FIELDS.has(field))) {
            ctx.addIssue({
              code: 'custom',
              path: [header],
              message: 'must be a package field name, or empty to ignore the column',
            });
          } else {
            out[header] = field;
          }
        }
        return out;
      }),
  })
  .superRefine(refuseUnknownFields(['columns']), { when: () => true })
  .transform((body) => ({ columns: body.columns }));
export type TImportMappingRequest = z.output<typeof ZImportMappingRequest>;
