'use client';
import type { ReactNode } from 'react';
import { Card, CardTitle, DateTime, DetailItem } from '@/components/ui';
import type { TPackage } from '@/lib/portal/package-list-types';

// What the shipper sent for a package, in words: grouped as the manifest page groups a container's header, each
// field under its label (not its API name), weights and sizes with their units, dates as dates. A field added to
// the API later still shows, under "Other", with its name spelled out.

type Field = { label: string; value: (p: Record<string, unknown>) => ReactNode };

const text = (key: string) => (p: Record<string, unknown>) => shown(p[key]);

function shown(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return ISO_MOMENT.test(value) ? <DateTime value={value} /> : value;
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return <span className="break-all font-mono text-xs">{JSON.stringify(value)}</span>;
}

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A number as sent (a decimal string or a number) with its unit; nothing when it was not sent. */
function measure(value: unknown, unit: string): string | null {
  if (typeof value === 'number') return `${value.toLocaleString('en-US', { maximumFractionDigits: 3 })} ${unit}`;
  if (typeof value === 'string' && value.trim() !== '') return `${value} ${unit}`;
  return null;
}

/** Length × width × height in inches (the API's unit for sizes); nothing when none was sent. */
function dimensions(p: Record<string, unknown>, prefix: 'PackageSize' | 'Container'): string | null {
  const sides = ['Length', 'Width', 'Height'].map((side) => p[`${prefix}${side}`]);
  if (sides.every((side) => side === null || side === undefined || side === '')) return null;
  return `${sides.map((side) => (typeof side === 'number' || typeof side === 'string' ? String(side) || '?' : '?')).join(' × ')} in`;
}

function weightUnit(p: Record<string, unknown>): string {
  const unit = p.PackageWeightUnit ?? p.WeightUnit;
  return typeof unit === 'string' && unit ? unit : 'lb';
}

/** The manifest date is a day (the API keeps a midnight time with it). */
function day(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

const GROUPS: { title: string; keys: string[]; fields: Field[] }[] = [
  {
    title: 'Parcel',
    keys: [
      'PackageWeight',
      'PackageWeightUnit',
      'WeightUnit',
      'PackageSizeLength',
      'PackageSizeWidth',
      'PackageSizeHeight',
      'ShipmentDescription',
      'ServiceName',
      'FinalMileCarrier',
      'ManifestDate',
      'SortCode',
      'carrier_barcode',
      'QuoteID',
    ],
    fields: [
      { label: 'Weight', value: (p) => measure(p.PackageWeight, weightUnit(p)) },
      { label: 'Dimensions (L × W × H)', value: (p) => dimensions(p, 'PackageSize') },
      { label: 'Description', value: text('ShipmentDescription') },
      { label: 'Service', value: text('ServiceName') },
      { label: 'Final-mile carrier', value: text('FinalMileCarrier') },
      { label: 'Manifest date', value: (p) => day(p.ManifestDate) },
      { label: 'Sort code', value: text('SortCode') },
      {
        label: 'Carrier barcode',
        value: (p) => (typeof p.carrier_barcode === 'string' ? <span className="font-mono">{p.carrier_barcode}</span> : null),
      },
      { label: 'Quote', value: (p) => (typeof p.QuoteID === 'string' ? <span className="font-mono">{p.QuoteID}</span> : null) },
    ],
  },
  {
    title: 'Recipient',
    keys: [
      'ToName',
      'ToCompany',
      'ToAddress1',
      'ToAddress2',
      'ToCity',
      'ToState',
      'ToPostalCode',
      'ToCountry',
      'ToPhone',
      'ToEmail',
      'Consignee',
      'ToTerminal',
    ],
    fields: [
      { label: 'Name', value: text('ToName') },
      { label: 'Company', value: text('ToCompany') },
      { label: 'Address line 1', value: text('ToAddress1') },
      { label: 'Address line 2', value: text('ToAddress2') },
      { label: 'City', value: text('ToCity') },
      { label: 'State', value: text('ToState') },
      { label: 'Postal code', value: text('ToPostalCode') },
      { label: 'Country', value: text('ToCountry') },
      { label: 'Phone', value: text('ToPhone') },
      { label: 'E-mail', value: text('ToEmail') },
      { label: 'Consignee', value: text('Consignee') },
      { label: 'To terminal', value: text('ToTerminal') },
    ],
  },
  {
    title: 'Sender',
    keys: [
      'FromCompany',
      'FromName',
      'FromAddress1',
      'FromAddress2',
      'FromCity',
      'FromState',
      'FromPostalCode',
      'FromCountry',
      'FromPhone',
      'FromEmail',
      'FromTerminal',
    ],
    fields: [
      { label: 'Company', value: text('FromCompany') },
      { label: 'Contact name', value: text('FromName') },
      { label: 'Address line 1', value: text('FromAddress1') },
      { label: 'Address line 2', value: text('FromAddress2') },
      { label: 'City', value: text('FromCity') },
      { label: 'State', value: text('FromState') },
      { label: 'Postal code', value: text('FromPostalCode') },
      { label: 'Country', value: text('FromCountry') },
      { label: 'Phone', value: text('FromPhone') },
      { label: 'E-mail', value: text('FromEmail') },
      { label: 'From terminal', value: text('FromTerminal') },
    ],
  },
  {
    title: 'Container',
    keys: ['ContainerName', 'ContainerCount', 'ContainerWeight', 'ContainerLength', 'ContainerWidth', 'ContainerHeight', 'AWB'],
    fields: [
      { label: 'Container name', value: text('ContainerName') },
      { label: 'Container count', value: text('ContainerCount') },
      { label: 'Container weight', value: (p) => measure(p.ContainerWeight, 'lb') },
      { label: 'Container dimensions (L × W × H)', value: (p) => dimensions(p, 'Container') },
      { label: 'Air waybill (AWB)', value: text('AWB') },
    ],
  },
  {
    title: 'References',
    keys: ['Reference1', 'Reference2', 'Reference3', 'Reference4'],
    fields: [1, 2, 3, 4].map((n) => ({ label: `Reference ${n}`, value: text(`Reference${n}`) })),
  },
];

/** The API's field names with a label of their own elsewhere on the page (the summary, customs): not repeated. */
const SHOWN_ELSEWHERE = new Set([
  'object',
  'TrackingNumber',
  'ManifestID',
  'ContainerID',
  'manifest_type',
  'status',
  'status_updated_at',
  'created_at',
  'house_waybill',
  'customs_status',
  'customs_status_updated_at',
  'Customs',
  'charge',
  'offloaded_at',
  'returns',
  'return_of',
]);

const PLACED = new Set(GROUPS.flatMap((group) => group.keys));

const LABELS: Record<string, string> = Object.fromEntries([
  ['PackageWeight', 'Weight'],
  ['PackageWeightUnit', 'Weight unit'],
  ['WeightUnit', 'Weight unit'],
  ['PackageSizeLength', 'Length'],
  ['PackageSizeWidth', 'Width'],
  ['PackageSizeHeight', 'Height'],
  ['ShipmentDescription', 'Description'],
  ['ServiceName', 'Service'],
  ['tracking_url', 'Public tracking page'],
  ['ToName', 'Recipient name'],
  ['ToCompany', 'Recipient company'],
  ['ToAddress1', 'Recipient address line 1'],
  ['ToAddress2', 'Recipient address line 2'],
  ['ToCity', 'Recipient city'],
  ['ToState', 'Recipient state'],
  ['ToPostalCode', 'Recipient postal code'],
  ['ToCountry', 'Recipient country'],
  ['ToPhone', 'Recipient phone'],
  ['ToEmail', 'Recipient e-mail'],
  ['FromName', 'Sender contact name'],
  ['FromCompany', 'Sender company'],
  ['FromAddress1', 'Sender address line 1'],
  ['FromAddress2', 'Sender address line 2'],
  ['FromCity', 'Sender city'],
  ['FromState', 'Sender state'],
  ['FromPostalCode', 'Sender postal code'],
  ['FromCountry', 'Sender country'],
  ['FromPhone', 'Sender phone'],
  ['FromEmail', 'Sender e-mail'],
  ['AWB', 'Air waybill (AWB)'],
  ['QuoteID', 'Quote'],
  ['carrier_barcode', 'Carrier barcode'],
]);

/** A field's name in words: its label, else the API name spelled out ("FinalMileCarrier" → "Final mile carrier"). */
export function fieldLabel(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function PackageFields({ pkg }: { pkg: TPackage }) {
  const p = pkg as Record<string, unknown>;
  const groups = GROUPS.map((group) => ({
    title: group.title,
    items: group.fields.map((f) => ({ label: f.label, value: f.value(p) })).filter((item) => item.value !== null),
  }));
  const other = Object.keys(p)
    .filter((key) => !SHOWN_ELSEWHERE.has(key) && !PLACED.has(key))
    .map((key) => ({ label: fieldLabel(key), value: shown(p[key]) }))
    .filter((item) => item.value !== null);
  if (other.length) groups.push({ title: 'Other', items: other });
  const filled = groups.filter((group) => group.items.length > 0);
  if (filled.length === 0) return null;
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="package-fields">
      {filled.map((group) => (
        <Card key={group.title}>
          <CardTitle>{group.title}</CardTitle>
          <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            {group.items.map((item) => (
              <DetailItem key={item.label} label={item.label} value={item.value} />
            ))}
          </dl>
        </Card>
      ))}
    </div>
  );
}
