'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { usePortalEnvironment, useCan } from '@/components/layout/portal-context';
import { Alert, Button, ConfirmDialog } from '@/components/ui';
import type { PortalFile } from '@/lib/portal/fetcher';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import { LINK_IDS_MAX, packIds, type TBatchCancelResponse, type TPackageCountResponse } from '@/lib/schemas/package-selection';

// What the Packages page does with its selection: cancel, labels (PDF or ZPL), CSV. The server is sent the ticked
// carrier barcodes, or the filter when every matching package is selected, and acts only within the page's account
// and environment.

/** Ticked rows (carrier barcode → what the row shows), or every package the filter matches. */
export type Selection = { kind: 'some'; ids: Map<string, string> } | { kind: 'all' };

const n = (count: number) => count.toLocaleString('en-US');
const packages = (count: number) => `${n(count)} package${count === 1 ? '' : 's'}`;

function body(selection: Selection, filters: URLSearchParams) {
  return selection.kind === 'all' ? { filter: Object.fromEntries(filters) } : { carrier_barcodes: [...selection.ids.keys()] };
}

function follow(href: string, fileName = '') {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a fetched file as the browser saves a download link's. */
function save(file: PortalFile) {
  const url = URL.createObjectURL(file.blob);
  follow(url, file.fileName);
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The selection as a download link when it fits one (every package of a filter, or up to LINK_IDS_MAX ticked): the
 * browser then shows the download as soon as the server answers, and the file arrives as it is sent.
 */
function linkQuery(selection: Selection, filters: URLSearchParams, environment: string): URLSearchParams | undefined {
  if (selection.kind === 'some' && selection.ids.size > LINK_IDS_MAX) return undefined;
  const query =
    selection.kind === 'all' ? new URLSearchParams(filters) : new URLSearchParams({ ids: packIds([...selection.ids.keys()]) });
  query.set(ENVIRONMENT_QUERY, environment);
  return query;
}

export function PackageBatchBar({
  selection,
  count,
  pageRows,
  allOnPage,
  total,
  filters,
  onSelectAll,
  onClear,
}: {
  selection: Selection;
  count: number;
  pageRows: number;
  allOnPage: boolean;
  total: TPackageCountResponse | undefined;
  filters: URLSearchParams;
  onSelectAll: () => void;
  onClear: () => void;
}) {
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const canCancel = useCan('shipments:write');
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<TBatchCancelResponse | null>(null);
  const cancel = useMutation({
    mutationFn: () => portal.fetch<TBatchCancelResponse>('/portal-api/package-batch/cancel', { body: body(selection, filters) }),
    onSuccess: (answer) => {
      setResult(answer);
      setConfirming(false);
      onClear();
      void queryClient.invalidateQueries({ queryKey: portal.key('packages') });
      void queryClient.invalidateQueries({ queryKey: portal.key('package-count') });
    },
  });
  const fetched = useMutation({
    mutationFn: (path: string) => portal.fetch<PortalFile>(path, { body: body(selection, filters), file: true }),
    onSuccess: save,
  });
  const download = (path: string, extra: Record<string, string> = {}) => {
    const query = linkQuery(selection, filters, portal.environment);
    if (!query) return fetched.mutate(`${path}${extra.format ? `?format=${extra.format}` : ''}`);
    for (const [name, value] of Object.entries(extra)) query.set(name, value);
    follow(`${path}?${query}`);
  };
  const busy = (what: string) => fetched.isPending && !!fetched.variables?.includes(what);

  const bar =
    count > 0 ? (
      <div
        role="region"
        aria-label="Selected packages"
        className="flex flex-wrap items-center gap-2 rounded-lg border border-brand-300 bg-brand-50 px-4 py-3 text-sm"
      >
        <p className="mr-2 font-medium text-brand-900">
          {selection.kind === 'all' ? `All ${packages(count)} matching this filter are selected` : `${packages(count)} selected`}
        </p>
        {selection.kind === 'some' && allOnPage && total && total.count > pageRows && !total.capped ? (
          <Button size="sm" variant="secondary" onClick={onSelectAll}>
            Select all {n(total.count)} matching this filter
          </Button>
        ) : null}
        <div className="flex flex-wrap gap-2 sm:ml-auto">
          {canCancel ? (
            <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
              Cancel selected
            </Button>
          ) : null}
          <Button
            size="sm"
            variant="secondary"
            loading={busy('format=pdf')}
            onClick={() => download('/portal-api/package-batch/labels', { format: 'pdf' })}
          >
            Labels (PDF)
          </Button>
          <Button
            size="sm"
            variant="secondary"
            loading={busy('format=zpl')}
            onClick={() => download('/portal-api/package-batch/labels', { format: 'zpl' })}
          >
            Labels (ZPL)
          </Button>
          <Button
            size="sm"
            variant="secondary"
            loading={busy('/export')}
            onClick={() => download('/portal-api/package-batch/export')}
          >
            Export selected (CSV)
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </div>
      </div>
    ) : null;

  return (
    <>
      {bar}
      {fetched.isError ? (
        <Alert tone="danger">
          Could not download: {fetched.error instanceof Error ? fetched.error.message : 'something went wrong'}
        </Alert>
      ) : null}
      {result ? <CancelResult result={result} onDismiss={() => setResult(null)} /> : null}
      <ConfirmDialog
        open={confirming}
        title={`Cancel ${packages(count)}?`}
        confirmLabel={`Yes, cancel ${packages(count)}`}
        busy={cancel.isPending}
        error={cancel.isError ? (cancel.error instanceof Error ? cancel.error.message : 'Something went wrong.') : undefined}
        onConfirm={() => cancel.mutate()}
        onClose={() => {
          setConfirming(false);
          cancel.reset();
        }}
      >
        Packages the carrier already has (received or later) are left as they are and listed afterwards. This cannot be undone; a
        cancelled tracking number is never used again.
      </ConfirmDialog>
    </>
  );
}

function CancelResult({ result, onDismiss }: { result: TBatchCancelResponse; onDismiss: () => void }) {
  const failed = result.not_cancelled;
  return (
    <Alert tone={failed.length ? 'warning' : 'success'}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="space-y-1">
          <p className="font-medium">
            {packages(result.cancelled)} cancelled
            {result.already_cancelled ? `, ${n(result.already_cancelled)} already cancelled` : ''}
            {failed.length ? `; ${n(failed.length)} could not be cancelled:` : '.'}
          </p>
          {failed.length ? (
            <ul className="list-disc space-y-0.5 pl-5">
              {failed.map((f) => (
                <li key={f.carrier_barcode}>
                  <span className="font-mono">{f.TrackingNumber ?? f.carrier_barcode}</span>: {f.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </Alert>
  );
}
