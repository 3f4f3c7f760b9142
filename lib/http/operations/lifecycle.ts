import 'server-only';
import type { Operation, OperationContext } from '../types';
import { parseOperation } from '@/lib/schemas/parse';
import {
  PACKAGE_LIST_PARAMETERS,
  ZListManifestsQuery,
  ZListPackagesQuery,
  ZPageQuery,
  ZScan,
  ZScanBatch,
  ZSimulateRequest,
  type TListManifestsResponse,
  type TManifestResponse,
  type TScanBatchResponse,
} from '@/lib/schemas/lifecycle';
import { textRuleViolation } from '@/lib/schemas/text-rule';
import { cancelManifest, cancelPackage, simulateManifest, simulatePackage } from '@/lib/lifecycle/change-status';
import { closeManifest } from '@/lib/close-out/close-manifest';
import { ingestScans, type Scan, type ScanResult } from '@/lib/lifecycle/ingest-scans';
import {
  getManifest,
  getPackage,
  listManifestPackages,
  listManifests,
  listPackageEvents,
  listPackages,
} from '@/lib/lifecycle/read';
import { isPackageStatus } from '@/lib/lifecycle/transitions';
import { AppError, validationError } from '@/lib/errors/app-error';
import { formatPath } from '@/lib/schemas/parse';
import { assertFilterAlphabets, decodedPairs, queryObject } from '../query';

// Thin operations over lib/lifecycle: parse, call one function, answer the read shape. Scoped by the token's
// account and the path's environment; another's id is a plain 404.

function scope(context: OperationContext) {
  return { accountId: context.auth.accountId, environment: context.environment };
}

/** The query string as an object; a parameter given twice or not known, or an escape that does not decode, is a 422 naming it. */
function query(context: OperationContext, known: readonly string[]): Record<string, string> {
  return queryObject(decodedPairs(context.search), { known });
}

const MANIFEST_FILTERS = ['limit', 'cursor', 'type', 'status', 'service', 'from', 'to', 'container_id', 'q'] as const;
const PACKAGE_FILTERS = PACKAGE_LIST_PARAMETERS;

function trackingNumber(context: OperationContext): string {
  return context.params.trackingNumber ?? '';
}
function manifestId(context: OperationContext): string {
  return context.params.id ?? '';
}

// GET /manifests: container and daily manifests, newest first (the portal's Manifests list runs it too).
export const listManifestsOperation: Operation<TListManifestsResponse> = async (context) => {
  const q = parseOperation(ZListManifestsQuery, query(context, MANIFEST_FILTERS));
  return { body: await listManifests({ ...scope(context), query: q }) };
};

// GET /manifests/:id: with package counts by status and totals.
export const getManifestOperation: Operation<TManifestResponse> = async (context) => ({
  body: await getManifest({ ...scope(context), manifestId: manifestId(context) }),
});

// GET /manifests/:id/packages: in the manifest's order (a container's by position, a daily manifest's by arrival).
export const listManifestPackagesOperation: Operation = async (context) => {
  const page = parseOperation(ZPageQuery, query(context, ['limit', 'cursor']));
  return { body: await listManifestPackages({ ...scope(context), manifestId: manifestId(context), ...page }) };
};

// POST /manifests/:id/cancel: the container with its packages, or a daily manifest's still-manifested packages.
export const cancelManifestOperation: Operation<TManifestResponse> = async (context) => {
  await cancelManifest({ ...scope(context), manifestId: manifestId(context), origin: context.origin });
  return { body: await getManifest({ ...scope(context), manifestId: manifestId(context) }) };
};

// POST /manifests/:id/close: a daily manifest closed; 200 with the closed manifest, also when it was closed
// already. It takes no options: a body is not read (as cancel's).
export const closeManifestOperation: Operation<TManifestResponse> = async (context) => {
  await closeManifest({ ...scope(context), manifestId: manifestId(context), origin: context.origin });
  return { body: await getManifest({ ...scope(context), manifestId: manifestId(context) }) };
};

// POST /version-test/api/1.1/manifests/:id/simulate {status}
export const simulateManifestOperation: Operation<TManifestResponse> = async (context) => {
  const body = parseOperation(ZSimulateRequest, await context.json());
  await simulateManifest({
    ...scope(context),
    manifestId: manifestId(context),
    target: body.status,
    code: body.code,
    text: body.text,
  });
  return { body: await getManifest({ ...scope(context), manifestId: manifestId(context) }) };
};

// GET /packages: every package, container and daily, newest first.
export const listPackagesOperation: Operation = async (context) => {
  const raw = query(context, PACKAGE_FILTERS);
  assertFilterAlphabets(raw);
  const q = parseOperation(ZListPackagesQuery, raw);
  return { body: await listPackages({ ...scope(context), query: q }) };
};

// GET /packages/:trackingNumber
export const getPackageOperation: Operation = async (context) => ({
  body: await getPackage({ ...scope(context), trackingNumber: trackingNumber(context) }),
});

// GET /packages/:trackingNumber/events: the timeline.
export const listPackageEventsOperation: Operation = async (context) => ({
  body: await listPackageEvents({ ...scope(context), trackingNumber: trackingNumber(context) }),
});

// POST /packages/:trackingNumber/cancel: 200 with the package, also when it was cancelled already.
export const cancelPackageOperation: Operation = async (context) => {
  await cancelPackage({ ...scope(context), trackingNumber: trackingNumber(context), origin: context.origin });
  return { body: await getPackage({ ...scope(context), trackingNumber: trackingNumber(context) }) };
};

// POST /version-test/api/1.1/packages/:trackingNumber/simulate {status, code?}
export const simulatePackageOperation: Operation = async (context) => {
  const body = parseOperation(ZSimulateRequest, await context.json());
  if (!isPackageStatus(body.status))
    throw validationError([{ path: 'status', message: `a package's status is one of its states, not ${body.status}` }]);
  await simulatePackage({
    ...scope(context),
    trackingNumber: trackingNumber(context),
    target: body.status,
    code: body.code,
    text: body.text,
  });
  return { body: await getPackage({ ...scope(context), trackingNumber: trackingNumber(context) }) };
};

// POST /ops/scans (operations tokens only): up to 1,000 scans, each applied, recorded or refused on its own.
export const ingestScansOperation: Operation = async (context) => {
  if (context.auth.kind !== 'ops') throw new AppError('forbidden', 'Only carrier operations tokens may send scans.');
  const input = await context.json();
  // The batch's shape only: parseOperation's text rule walks everything it returns, the scans included, so
  // one NUL in one scan would refuse the whole batch. Each scan is held to the rule on its own, below.
  const shape = ZScanBatch.safeParse(input);
  const batch = shape.success ? shape.data : parseOperation(ZScanBatch, input);
  const results: (ScanResult | undefined)[] = [];
  const valid: { index: number; scan: Scan }[] = [];
  batch.scans.forEach((item, index) => {
    const parsed = ZScan.safeParse(item);
    const unstorable = parsed.success ? unstorableField(parsed.data) : undefined;
    if (parsed.success && !unstorable) {
      const s = parsed.data;
      valid.push({
        index,
        scan: {
          scanId: s.scan_id,
          carrierBarcode: s.carrier_barcode,
          trackingNumber: s.tracking_number,
          containerId: s.container_id,
          manifestId: s.manifest_id,
          event: s.event,
          location: s.location,
          occurredAt: new Date(s.occurred_at),
          exceptionCode: s.exception_code,
          exceptionText: s.exception_text,
        },
      });
      results.push(undefined);
    } else {
      // Echoed only when it is a well-formed scan id: nothing else of a refused scan is sent back.
      const sent = typeof item === 'object' && item !== null && 'scan_id' in item ? item.scan_id : undefined;
      const scanId = typeof sent === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(sent) ? sent : null;
      const details = parsed.success
        ? [unstorable ?? { path: '(scan)', message: 'is invalid' }]
        : parsed.error.issues.slice(0, 10).map((issue) => ({ path: formatPath(issue.path) || '(scan)', message: issue.message }));
      results.push({
        scan_id: scanId ?? '',
        result: 'refused',
        error: { code: 'validation_failed', message: `scans[${index}] is invalid.`, details },
      });
    }
  });
  const applied =
    valid.length > 0 ? await ingestScans({ environment: context.environment, scans: valid.map((v) => v.scan) }) : [];
  valid.forEach((v, i) => {
    results[v.index] = applied[i];
  });
  const done = results.filter((r): r is ScanResult => r !== undefined);
  const count = (kind: ScanResult['result']) => done.filter((r) => r.result === kind).length;
  const body: TScanBatchResponse = {
    object: 'scan_batch',
    applied: count('applied'),
    recorded: count('recorded'),
    duplicate: count('duplicate'),
    refused: count('refused'),
    results: done,
  };
  return { body };
};

/** The first field of a parsed scan whose text PostgreSQL or a screen would refuse (the text rule), named. */
function unstorableField(scan: Record<string, unknown>): { path: string; message: string } | undefined {
  for (const [key, value] of Object.entries(scan)) {
    const violation = typeof value === 'string' ? textRuleViolation(value, { multiline: true }) : undefined;
    if (violation) return { path: key, message: violation };
  }
  return undefined;
}
