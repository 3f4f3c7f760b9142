'use client';
import type { ReactNode } from 'react';
import { PortalLink } from '@/components/layout/portal-context';
import { StatusBadge } from '@/components/lifecycle/status-badge';
import { ListTable, NoValue, Td, Th, Tr } from '@/components/ui';
import type { TPackage } from '@/lib/portal/package-list-types';

// The one table of packages: the Packages page's list (with its row checkboxes) and a manifest's packages. Columns
// are picked per page; a tracking number always links to its package, a status is always its badge.

export interface PackageColumn {
  heading: string;
  cell: (p: TPackage) => ReactNode;
  className?: string;
}

interface PackageTableSelection {
  isSelected: (p: TPackage) => boolean;
  toggle: (p: TPackage) => void;
  /** Every row of the page ticked (true), some (mixed), none (false). */
  page: boolean | 'mixed';
  togglePage: () => void;
  /** Every package of the filter is selected: the boxes show it and cannot be unticked one by one. */
  locked?: boolean;
}

const checkbox = 'h-4 w-4 rounded border-slate-400 text-brand-600';

export function PackageTable({
  label,
  rows,
  columns,
  busy,
  footer,
  selection,
  numberFrom,
  tall,
}: {
  label: string;
  rows: TPackage[];
  columns: PackageColumn[];
  busy?: boolean;
  footer?: ReactNode;
  selection?: PackageTableSelection;
  /** Rows numbered from this (a manifest's order). */
  numberFrom?: number;
  tall?: boolean;
}) {
  return (
    <ListTable
      label={label}
      busy={busy}
      tall={tall}
      head={
        <>
          {selection ? (
            <Th className="w-8">
              <input
                type="checkbox"
                className={checkbox}
                aria-label="Select every package on this page"
                checked={selection.page === true}
                ref={(el) => {
                  if (el) el.indeterminate = selection.page === 'mixed';
                }}
                disabled={selection.locked}
                onChange={selection.togglePage}
              />
            </Th>
          ) : null}
          {numberFrom !== undefined ? <Th className="text-right">#</Th> : null}
          {columns.map((c) => (
            <Th key={c.heading} className={c.className}>
              {c.heading}
            </Th>
          ))}
        </>
      }
      footer={footer}
    >
      {rows.map((p, i) => (
        <Tr key={p.carrier_barcode} className={selection?.isSelected(p) ? 'bg-brand-50' : undefined}>
          {selection ? (
            <Td data-label="Select">
              <input
                type="checkbox"
                className={checkbox}
                aria-label={`Select ${p.TrackingNumber ?? p.carrier_barcode}`}
                checked={selection.isSelected(p)}
                disabled={selection.locked}
                onChange={() => selection.toggle(p)}
              />
            </Td>
          ) : null}
          {numberFrom !== undefined ? (
            <Td data-label="#" className="text-right tabular-nums text-slate-600">
              {numberFrom + i}
            </Td>
          ) : null}
          {columns.map((c) => (
            <Td key={c.heading} data-label={c.heading} className={c.className}>
              {c.cell(p)}
            </Td>
          ))}
        </Tr>
      ))}
    </ListTable>
  );
}

/** A stored value as text, or the dash. */
export function text(value: unknown): ReactNode {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : <NoValue />;
}

/** The columns both tables share. */
export const TRACKING_COLUMN: PackageColumn = {
  heading: 'Tracking number',
  cell: (p) =>
    p.TrackingNumber ? (
      <PortalLink
        href={`/packages/${encodeURIComponent(p.TrackingNumber)}`}
        className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline"
      >
        {p.TrackingNumber}
      </PortalLink>
    ) : (
      // No shipper number: the package's page is found by its carrier barcode.
      <PortalLink
        href={`/packages/${encodeURIComponent(p.carrier_barcode)}`}
        className="font-mono text-brand-700 underline-offset-2 hover:underline"
      >
        {p.carrier_barcode}
      </PortalLink>
    ),
};

export const STATUS_COLUMN: PackageColumn = { heading: 'Status', cell: (p) => <StatusBadge status={p.status} /> };

export const POSTAL_CODE_COLUMN: PackageColumn = { heading: 'To postal code', cell: (p) => text(p.ToPostalCode) };

/** The package's weight with its unit ("2.5 lb"), as sent. */
export function weight(p: TPackage): ReactNode {
  const value = p.PackageWeight;
  if (typeof value !== 'number' && (typeof value !== 'string' || value === '')) return <NoValue />;
  const unit = typeof p.PackageWeightUnit === 'string' && p.PackageWeightUnit ? p.PackageWeightUnit : 'lb';
  return `${value} ${unit}`;
}
