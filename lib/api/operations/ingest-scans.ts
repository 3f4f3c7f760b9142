import 'server-only';
import { AppError } from '@/lib/errors/app-error';
import { defineJsonOperation } from '../operation';
import { errorAnswer } from '../openapi/parts';
import { formatPath, parseOperation } from '@/lib/schemas/parse';
import { ZScan, ZScanBatch, ZScanBatchResponse, type TScanBatchResponse } from '@/lib/schemas/lifecycle';
import { textRuleViolation } from '@/lib/schemas/text-rule';
import { departureReadiness } from '@/lib/customs/departure-readiness';
import { ingestScans, type Scan, type ScanResult } from '@/lib/status/ingest-scans';
import { CUSTOMS_OUTCOMES } from '@/lib/schemas/statuses';
import { checkImage, MAX_IMAGE_BYTES } from '@/lib/proof-of-delivery/images';
import { keepScanProof, type ProofInput } from '@/lib/proof-of-delivery/proofs';

export const ingestScansOperation = defineJsonOperation(ZScanBatchResponse, {
  id: 'ingestScans',
  method: 'POST',
  path: '/ops/scans',
  scope: 'carrier:operations',
  tag: 'Carrier operations',
  summary: 'Carrier scans, up to 1,000 a batch (operations tokens `ck_ops_…` only)',
  description:
    "Each scan is applied, recorded (history only: out of order or a repeat) or refused on its own; a `scan_id` already taken is answered `duplicate`. A package is named by `carrier_barcode` (always one package), or by `tracking_number`, narrowed by `container_id` or `manifest_id` when given and then to the packages that can take the scan; still more than one is refused `ambiguous`, with each candidate's barcode in `details`. `container_id` alone scans the container.",
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['scans'],
          properties: {
            scans: {
              type: 'array',
              minItems: 1,
              maxItems: 1000,
              items: {
                type: 'object',
                required: ['scan_id', 'event', 'location', 'occurred_at'],
                properties: {
                  scan_id: { type: 'string', maxLength: 128 },
                  carrier_barcode: {
                    type: 'string',
                    pattern: '^[Cc][Bb][0-9]{13}$',
                    description:
                      "The label's sort barcode: CB, 12 digits and a Luhn check digit. Names one package; send nothing else to name it.",
                  },
                  tracking_number: { type: 'string' },
                  container_id: {
                    type: 'string',
                    description: "Alone: the container's scan. With tracking_number: the container the package travels in.",
                  },
                  manifest_id: { type: 'string', description: 'With tracking_number: the manifest the package is on.' },
                  event: {
                    type: 'string',
                    enum: [
                      'received',
                      'in_transit',
                      'out_for_delivery',
                      'delivered',
                      'exception',
                      'resolved',
                      'departed',
                      'arrived',
                      'closed',
                      ...CUSTOMS_OUTCOMES,
                    ],
                    description:
                      "A status scan, or a customs outcome (assessment_complete, information_requested, screening_requested, do_not_load, released) on the package or, with container_id alone, on the container itself: each applied one is sent as `customs.<outcome>`. A container's departed scan is refused `do_not_load` while it or a house in it is on do_not_load, each such house named in `details`; on the live path, when its shipper enforces customs readiness (a portal setting), `customs_not_ready` while a regime that applies is not ready, each such regime named in `details`.",
                  },
                  location: { type: 'string', description: 'IATA code or US/Canadian postal code.' },
                  occurred_at: { type: 'string', format: 'date-time' },
                  exception_code: { type: 'string' },
                  exception_text: { type: 'string' },
                  customs_reference: {
                    type: 'string',
                    maxLength: 70,
                    description: "With a customs outcome: the authority's reference (an MRN, a message id).",
                  },
                  customs_text: {
                    type: 'string',
                    maxLength: 500,
                    description:
                      'With a customs outcome: what customs said (the information or screening requested, the reason).',
                  },
                  proof_of_delivery: {
                    type: 'object',
                    additionalProperties: false,
                    description: `With a delivered scan only: who took the package, a signature and a photo, kept apart from the package and served to its shipper (GET /packages/{TrackingNumber}/proof-of-delivery). Each image is base64 (standard alphabet, padded, no data: prefix) of a PNG or JPEG, told by its bytes, at most ${MAX_IMAGE_BYTES / 1024} KB decoded, with nothing after its end (IEND or EOI); anything else refuses the scan \`validation_failed\` naming the field. The request body's own limit (5 MB by default) bounds how many a batch can carry.`,
                    properties: {
                      recipient_name: { type: 'string', maxLength: 100 },
                      signature: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' },
                      photo: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/jpeg' },
                    },
                  },
                  measured: {
                    type: 'object',
                    additionalProperties: false,
                    description:
                      "With a received scan: what the hub measured. The package is re-rated with its charge's card version; a difference is an adjustment (`package.adjusted`, in its timeline and `charge.adjustments`), once per scan_id. Invalid values (not a number, negative, zero, too many decimals, too large) refuse the scan `validation_failed`, naming the field (`measured.weight`).",
                    properties: {
                      weight: { type: 'number', exclusiveMinimum: 0, maximum: 10000, description: 'At most 3 decimals.' },
                      weight_unit: { type: 'string', enum: ['lb', 'kg', 'oz'] },
                      length: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Inches, at most 2 decimals.' },
                      width: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Inches, at most 2 decimals.' },
                      height: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Inches, at most 2 decimals.' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  success: { kind: 'json', status: 200, description: "Each scan's result." },
  errors: { '403': errorAnswer('A shipper token.') },
  handler: async (context) => {
    if (context.auth.kind !== 'ops') throw new AppError('forbidden', 'Only carrier operations tokens may send scans.');
    const input = await context.json();
    // The batch's shape only: parseOperation's text rule walks everything it returns, the scans included, so
    // one NUL in one scan would refuse the whole batch. Each scan is held to the rule on its own, below.
    const shape = ZScanBatch.safeParse(input);
    const batch = shape.success ? shape.data : parseOperation(ZScanBatch, input);
    const results: (ScanResult | undefined)[] = [];
    const valid: { index: number; scan: Scan; proof?: ProofInput }[] = [];
    batch.scans.forEach((item, index) => {
      const parsed = ZScan.safeParse(item);
      const unstorable = parsed.success ? unstorableField(parsed.data) : undefined;
      const proof = parsed.success && !unstorable ? checkProof(parsed.data.proof_of_delivery) : undefined;
      if (parsed.success && !unstorable && (proof === undefined || !('problem' in proof))) {
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
            customsReference: s.customs_reference,
            customsText: s.customs_text,
            measured: s.measured,
          },
          proof,
        });
        results.push(undefined);
      } else {
        // Echoed only when it is a well-formed scan id: nothing else of a refused scan is sent back.
        const sent = typeof item === 'object' && item !== null && 'scan_id' in item ? item.scan_id : undefined;
        const scanId = typeof sent === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(sent) ? sent : null;
        const details = parsed.success
          ? [unstorable ?? (proof && 'problem' in proof ? proof.problem : { path: '(scan)', message: 'is invalid' })]
          : parsed.error.issues
              .slice(0, 10)
              .map((issue) => ({ path: formatPath(issue.path) || '(scan)', message: issue.message }));
        results.push({
          scan_id: scanId ?? '',
          result: 'refused',
          error: { code: 'validation_failed', message: `scans[${index}] is invalid.`, details },
        });
      }
    });
    const applied =
      valid.length > 0
        ? await ingestScans({
            environment: context.environment,
            scans: valid.map((v) => v.scan),
            departures: (containers) => departureReadiness(context.environment, containers),
          })
        : [];
    valid.forEach((v, i) => {
      results[v.index] = applied[i];
    });
    // A delivered scan's proof, kept once its scan is: through the event the scan wrote (lib/proof-of-delivery).
    for (const [i, v] of valid.entries()) {
      const result = applied[i];
      if (v.proof && result && result.result !== 'refused') await keepScanProof(context.environment, v.scan.scanId, v.proof);
    }
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
  },
});

/** The first field of a parsed scan whose text PostgreSQL or a screen would refuse (the text rule), named. */
function unstorableField(scan: Record<string, unknown>): { path: string; message: string } | undefined {
  for (const [key, value] of Object.entries(scan)) {
    const violation = typeof value === 'string' ? textRuleViolation(value, { multiline: true }) : undefined;
    if (violation) return { path: key, message: violation };
  }
  return undefined;
}

/** A delivered scan's proof with its images checked (PNG or JPEG by their bytes, size), or the first problem, named. */
function checkProof(
  proof: { recipient_name?: string; signature?: string; photo?: string } | undefined,
): ProofInput | { problem: { path: string; message: string } } | undefined {
  if (proof === undefined) return undefined;
  const checked: ProofInput = {};
  if (proof.recipient_name !== undefined) {
    const violation = textRuleViolation(proof.recipient_name);
    if (violation) return { problem: { path: 'proof_of_delivery.recipient_name', message: violation } };
    checked.recipientName = proof.recipient_name;
  }
  for (const key of ['signature', 'photo'] as const) {
    if (proof[key] === undefined) continue;
    const image = checkImage(proof[key]);
    if (typeof image === 'string') return { problem: { path: `proof_of_delivery.${key}`, message: image } };
    checked[key] = image;
  }
  return checked;
}
