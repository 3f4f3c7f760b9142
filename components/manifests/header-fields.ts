import { z } from 'zod';
import { ZContainerManifestRequest } from '@/lib/schemas/container-manifest';
import { SECURITY_STATUSES } from '@/lib/schemas/customs';
import { FIRST_MANIFEST_YEAR, LAST_MANIFEST_YEAR } from '@/lib/schemas/fields';
import type { TManifest } from '@/lib/portal/package-list-types';

// The builder's header fields come from the API's own schema: names, and which are required. `Security`, an object,
// is three inputs of its own (its Status, ScreeningMethod and IssuedBy), put together for the request.
const shape = ZContainerManifestRequest.in.shape;
type SchemaField = Exclude<keyof typeof shape, 'ContainerDetails' | 'Security'>;
const SECURITY_FORM_FIELDS = {
  SecurityStatus: 'Status',
  SecurityScreeningMethod: 'ScreeningMethod',
  SecurityIssuedBy: 'IssuedBy',
} as const;
type SecurityFormField = keyof typeof SECURITY_FORM_FIELDS;
export type HeaderField = SchemaField | SecurityFormField;
export type HeaderValues = Record<HeaderField, string>;

const SCHEMA_FIELDS = (Object.keys(shape) as (keyof typeof shape)[]).filter(
  (f): f is SchemaField => f !== 'ContainerDetails' && f !== 'Security',
);
export const HEADER_FIELDS: readonly HeaderField[] = [
  ...SCHEMA_FIELDS,
  ...(Object.keys(SECURITY_FORM_FIELDS) as SecurityFormField[]),
];
export const REQUIRED_HEADER_FIELDS = new Set<HeaderField>(
  SCHEMA_FIELDS.filter((f) => (shape[f].def.type as string) !== 'optional'),
);

/** The header as the API takes it: only the fields that hold something, the security inputs as `Security`. */
export function headerRequest(values: Partial<HeaderValues>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of SCHEMA_FIELDS) {
    const value = values[field]?.trim();
    if (value) body[field] = value;
  }
  const security: Record<string, string> = {};
  for (const [field, key] of Object.entries(SECURITY_FORM_FIELDS)) {
    const value = values[field as SecurityFormField]?.trim();
    if (value) security[key] = value;
  }
  if (Object.keys(security).length) body.Security = security;
  return body;
}

/** The form's field for a path in the API's details (`Security.Status` is SecurityStatus), or undefined. */
export function headerFieldOf(path: string): HeaderField | undefined {
  if (path === 'Security') return 'SecurityStatus';
  const security = /^Security\.(\w+)$/.exec(path)?.[1];
  if (security) {
    const entry = Object.entries(SECURITY_FORM_FIELDS).find(([, key]) => key === security);
    return (entry?.[0] as SecurityFormField | undefined) ?? 'SecurityStatus';
  }
  return (SCHEMA_FIELDS as readonly string[]).includes(path) ? (path as SchemaField) : undefined;
}

// The form holds one text per header field (so a resolver's types are the form's) and reports the API's own
// header schema's issues, each at its field.
const ZHeader = ZContainerManifestRequest.in.omit({ ContainerDetails: true });
export const ZHeaderForm = z
  .record(z.enum(HEADER_FIELDS as [HeaderField, ...HeaderField[]]), z.string())
  .superRefine((values, ctx) => {
    for (const issue of ZHeader.safeParse(headerRequest(values)).error?.issues ?? []) {
      const field = headerFieldOf(issue.path.map(String).join('.')) ?? issue.path[0];
      ctx.addIssue({ ...issue, path: field === undefined ? [] : [field] });
    }
  });

/** The documented maximum length of a header field (its schema's metadata), for the input's maxLength. */
export function headerMaxLength(field: HeaderField): number | undefined {
  if (field in SECURITY_FORM_FIELDS) return field === 'SecurityIssuedBy' ? 100 : 40;
  const schema = shape[field as SchemaField] as z.ZodType;
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  const maxLength = z.globalRegistry.get(inner)?.maxLength;
  return typeof maxLength === 'number' ? maxLength : undefined;
}

/** The manifest days the API accepts, for the date input's min and max. */
export const MANIFEST_DAY_RANGE = { min: `${FIRST_MANIFEST_YEAR}-01-01`, max: `${LAST_MANIFEST_YEAR}-12-31` } as const;

interface FieldSpec {
  name: HeaderField;
  label: string;
  type?: 'date' | 'email' | 'tel' | 'text';
  inputMode?: 'decimal' | 'numeric';
  placeholder?: string;
  hint?: string;
  wide?: boolean;
}

const GROUPS: { title: string; fields: FieldSpec[] }[] = [
  {
    title: 'Shipment',
    fields: [
      { name: 'ServiceName', label: 'Service', hint: 'AirSkip, Carrier Express or Carrier Ground' },
      {
        name: 'ManifestDate',
        label: 'Manifest date',
        type: 'date',
        hint: 'The day the carrier takes the container; today when empty.',
      },
      { name: 'ShipmentDescription', label: 'Shipment description', wide: true },
      { name: 'FinalMileCarrier', label: 'Final-mile carrier' },
      { name: 'SortCode', label: 'Sort code' },
      { name: 'FromTerminal', label: 'From terminal' },
      { name: 'ToTerminal', label: 'To terminal' },
      { name: 'Consignee', label: 'Consignee' },
    ],
  },
  {
    title: 'Sender',
    fields: [
      { name: 'FromCompany', label: 'Company' },
      { name: 'FromName', label: 'Contact name' },
      { name: 'FromPhone', label: 'Phone', type: 'tel' },
      { name: 'FromEmail', label: 'E-mail', type: 'email' },
      { name: 'FromAddress1', label: 'Address line 1', wide: true },
      { name: 'FromAddress2', label: 'Address line 2', wide: true },
      { name: 'FromCity', label: 'City' },
      { name: 'FromState', label: 'State' },
      { name: 'FromPostalCode', label: 'Postal code' },
      { name: 'FromCountry', label: 'Country' },
    ],
  },
  {
    title: 'Container',
    fields: [
      { name: 'ContainerID', label: 'Container ID', hint: 'Sending the same ID again with the same content is a safe retry.' },
      { name: 'ContainerName', label: 'Container name' },
      { name: 'ContainerCount', label: 'Container count', inputMode: 'numeric' },
      { name: 'ContainerWeight', label: 'Container weight (lb)', inputMode: 'decimal', hint: 'With its packages.' },
      { name: 'ContainerLength', label: 'Length (in)', inputMode: 'decimal' },
      { name: 'ContainerWidth', label: 'Width (in)', inputMode: 'decimal' },
      { name: 'ContainerHeight', label: 'Height (in)', inputMode: 'decimal' },
      { name: 'AWB', label: 'Air waybill (AWB)', inputMode: 'numeric', placeholder: '123-45678901' },
    ],
  },
  {
    title: 'Air cargo',
    fields: [
      {
        name: 'ULD',
        label: 'ULD',
        placeholder: 'AKE12345XH',
        hint: 'IATA type, serial and owner; a ULD-shaped container ID is taken when empty.',
      },
      { name: 'SealNumber', label: 'Seal number' },
      { name: 'FlightNumber', label: 'Flight number', placeholder: 'LH441' },
      { name: 'FlightDate', label: 'Flight date', type: 'date' },
      { name: 'OriginAirport', label: 'Origin airport', placeholder: 'YYZ' },
      { name: 'DestinationAirport', label: 'Destination airport', placeholder: 'FRA' },
      {
        name: 'SecurityStatus',
        label: 'Security status',
        hint: `Consignment security declaration: ${SECURITY_STATUSES.join(', ')}.`,
      },
      { name: 'SecurityScreeningMethod', label: 'Screening method', placeholder: 'XRY EDD' },
      { name: 'SecurityIssuedBy', label: 'Security issued by', wide: true },
    ],
  },
  {
    title: 'References',
    fields: [
      { name: 'Reference1', label: 'Reference 1' },
      { name: 'Reference2', label: 'Reference 2' },
      { name: 'Reference3', label: 'Reference 3' },
      { name: 'Reference4', label: 'Reference 4' },
    ],
  },
];

// A field added to the schema later still gets an input, under References.
const placed = new Set(GROUPS.flatMap((g) => g.fields.map((f) => f.name)));
GROUPS[GROUPS.length - 1].fields.push(...HEADER_FIELDS.filter((f) => !placed.has(f)).map((name) => ({ name, label: name })));

export const HEADER_GROUPS = GROUPS;

export function emptyHeader(): HeaderValues {
  return Object.fromEntries(HEADER_FIELDS.map((f) => [f, ''])) as HeaderValues;
}

/** A header field as stored; the security inputs read the stored `Security` object's members. */
export function headerValue(m: TManifest, field: HeaderField): unknown {
  const security = /^Security(\w+)$/.exec(field)?.[1];
  if (!security) return m[field];
  const stored: unknown = m.Security;
  return stored && typeof stored === 'object' ? (stored as Record<string, unknown>)[security] : undefined;
}

/** The air cargo header PATCH /manifests/{id} amends, as the form's inputs (Security as its three members). */
export const AMEND_FIELDS = [
  'AWB',
  'ULD',
  'SealNumber',
  'FlightNumber',
  'FlightDate',
  'OriginAirport',
  'DestinationAirport',
  'SecurityStatus',
  'SecurityScreeningMethod',
  'SecurityIssuedBy',
] as const;
export type AmendField = (typeof AMEND_FIELDS)[number];
export type AmendValues = Record<AmendField, string>;
const SECURITY_INPUTS = ['SecurityStatus', 'SecurityScreeningMethod', 'SecurityIssuedBy'] as const;

// The API holds each field to its acceptance rule (AWB check digit, airport codes, flight number, screening codes)
// and names every refused one in a 422, which the form puts on that field. The form itself checks only what needs
// no rule: a security declaration without its Status.
export const ZAmendForm = z
  .object(Object.fromEntries(AMEND_FIELDS.map((f) => [f, z.string().trim()])) as Record<AmendField, z.ZodString>)
  .superRefine((values, ctx) => {
    if (!values.SecurityStatus && (values.SecurityScreeningMethod || values.SecurityIssuedBy))
      ctx.addIssue({
        code: 'custom',
        path: ['SecurityStatus'],
        message: `is required with a screening method or issuer: ${SECURITY_STATUSES.join(', ')}`,
      });
  });

/** The form's values: the container's header as stored, '' for what it lacks. */
export function amendValues(m: TManifest): AmendValues {
  // Stored header values are text; anything else reads as its JSON, never "[object Object]".
  const text = (value: unknown) =>
    value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return Object.fromEntries(AMEND_FIELDS.map((f) => [f, text(headerValue(m, f))])) as AmendValues;
}

/** Only what changed: a field emptied is sent as null (removed); the security inputs go as one `Security`. */
export function changedFields(values: AmendValues, before: AmendValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of AMEND_FIELDS) {
    if (field.startsWith('Security') || values[field].trim() === before[field].trim()) continue;
    body[field] = values[field].trim() || null;
  }
  if (SECURITY_INPUTS.some((f) => values[f].trim() !== before[f].trim())) body.Security = headerRequest(values).Security ?? null;
  return body;
}
