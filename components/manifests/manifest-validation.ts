import { CONTAINER_MANIFEST_ALIASES } from '@/lib/schemas/container-manifest';
import { customsCellOfPath } from '@/lib/schemas/customs-cells';
import { formatPath } from '@/lib/schemas/parse';
import { DETAIL_FIELDS, isBlankRow, rowPayload, type DetailField, type RowErrors, type RowValues } from './grid-store';
import { headerFieldOf, headerRequest, type HeaderField, type HeaderValues } from './header-fields';

// Pure mapping between the builder's state and the API's request and error details: no React, no store.

export interface ErrorDetail {
  path: string;
  message: string;
}

const DETAIL_PATH = /^ContainerDetails\[(\d+)\]\.(.+)$/;
const CANONICAL = new Map(
  Object.entries(CONTAINER_MANIFEST_ALIASES).flatMap(([canonical, others]) => others.map((o) => [o, canonical])),
);

/**
 * The request body as the API takes it (only fields and cells that hold something, blank rows left out),
 * and which grid row each ContainerDetails item came from.
 */
export function buildManifestBody(header: Partial<HeaderValues>, rows: readonly RowValues[]) {
  const body = headerRequest(header);
  const rowOf: number[] = [];
  const details: Record<string, unknown>[] = [];
  rows.forEach((values, index) => {
    if (isBlankRow(values)) return;
    rowOf.push(index);
    details.push(rowPayload(values));
  });
  if (details.length) body.ContainerDetails = details;
  return { body, rowOf };
}

/** A schema's issues as the API would report them in `details`. */
export function issueDetails(issues: readonly { path: PropertyKey[]; message: string }[]): ErrorDetail[] {
  return issues.map((i) => ({ path: formatPath(i.path) || '(body)', message: i.message }));
}

export interface PlacedDetails {
  /** Messages for header fields (an alias in the path is mapped to the form's canonical field). */
  header: [HeaderField, string][];
  /** Messages for grid cells, by grid row (not by ContainerDetails index). */
  rows: Map<number, RowErrors>;
  /** What fits neither, as "path: message". */
  unplaced: string[];
}

/** Places error details (ours or the server's) on header fields and grid cells. */
export function placeDetails(details: readonly ErrorDetail[], rowOf: readonly number[]): PlacedDetails {
  const header: [HeaderField, string][] = [];
  const rows = new Map<number, RowErrors>();
  const unplaced: string[] = [];
  for (const { path, message } of details) {
    const match = DETAIL_PATH.exec(path);
    const cell =
      match && (DETAIL_FIELDS.includes(match[2] as DetailField) ? (match[2] as DetailField) : customsCellOfPath(match[2]));
    if (match && cell) {
      const index = Number(match[1]);
      const row = rowOf[index] ?? index;
      rows.set(row, { ...(rows.get(row) ?? {}), [cell]: message });
      continue;
    }
    const field = headerFieldOf(CANONICAL.get(path) ?? path);
    if (field) header.push([field, message]);
    else unplaced.push(`${path}: ${message}`);
  }
  return { header, rows, unplaced };
}

/** The sentence that leads a list of problems. */
export function problemsLead(count: number): string {
  return `${count} problem${count === 1 ? '' : 's'} to fix before this manifest can be created.`;
}
