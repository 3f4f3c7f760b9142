'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { PrintLink } from '@/components/documents/print-links';
import { PortalLink, useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { Alert, Button, Card, CardTitle, DetailItem, LoadingBlock, RequestLink } from '@/components/ui';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import { DateTime } from '@/components/ui/date-time';
import { isClientError } from '@/lib/portal/fetcher';
import type { TPackage } from '@/lib/portal/package-list-types';
import type { TProofOfDelivery } from '@/lib/schemas/proof-of-delivery';

const RETURNABLE = new Set(['out_for_delivery', 'delivered']);

/** The package's return links (the return made for it, or the package it returns) and "Make a return label". */
export function PackageReturns({ pkg, path, onChanged }: { pkg: TPackage; path: string; onChanged: () => void }) {
  const portal = usePortalEnvironment();
  const canWrite = useCan('shipments:write');
  const make = useMutation({
    mutationFn: () => portal.fetch<TPackage>(`${path}/return`, { method: 'POST', body: {} }),
    onSuccess: () => onChanged(),
  });
  const returns = pkg.returns ?? [];
  const live = returns.find((r) => r.status !== 'cancelled');
  const link = (r: { tracking_number: string | null; carrier_barcode: string }) => (
    <PortalLink
      href={`/packages/${encodeURIComponent(r.tracking_number ?? r.carrier_barcode)}`}
      className="break-all font-mono font-medium text-brand-700 underline"
    >
      {r.tracking_number ?? r.carrier_barcode}
    </PortalLink>
  );
  if (!pkg.return_of && returns.length === 0 && !RETURNABLE.has(pkg.status)) return null;
  return (
    <Card>
      <CardTitle>Returns</CardTitle>
      <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        {pkg.return_of ? <DetailItem label="Return of" value={link(pkg.return_of)} /> : null}
        {returns.map((r) => (
          <DetailItem key={r.carrier_barcode} label={`Return (${r.status.replaceAll('_', ' ')})`} value={link(r)} />
        ))}
      </dl>
      {!pkg.return_of && !live && RETURNABLE.has(pkg.status) ? (
        canWrite ? (
          <div className="mt-3 space-y-2">
            <p className="text-sm text-slate-700">
              A return package from the recipient back to you, with its own label, priced and tracked like any package.
            </p>
            <Button variant="secondary" loading={make.isPending} onClick={() => make.mutate()}>
              Make a return label
            </Button>
            {make.isError ? (
              <Alert tone="danger">
                {make.error.message} <RequestLink error={make.error} />
              </Alert>
            ) : null}
          </div>
        ) : (
          <p className="mt-3 text-sm text-slate-600">Making a return needs the shipments:write permission.</p>
        )
      ) : null}
      {live ? (
        <div className="mt-3">
          <PrintLink path={`/portal-api/packages/${encodeURIComponent(live.tracking_number ?? live.carrier_barcode)}/label`}>
            Print return label
          </PrintLink>
        </div>
      ) : null}
    </Card>
  );
}

/** Who took the package, when and where, the signature and the photo, and the PDF certificate. */
export function ProofOfDelivery({ path, status }: { path: string; status: string }) {
  const portal = usePortalEnvironment();
  const proof = useQuery({
    queryKey: portal.key('proof-of-delivery', path),
    queryFn: ({ signal }) => portal.fetch<TProofOfDelivery>(`${path}/proof-of-delivery`, { signal }),
    enabled: status === 'delivered',
    retry: (count, error) => !isClientError(error) && count < 2,
  });
  if (status !== 'delivered') return null;
  const image = (part: 'signature' | 'photo') =>
    `${path}/proof-of-delivery/${part}?${new URLSearchParams({ [ENVIRONMENT_QUERY]: portal.environment })}`;
  return (
    <section aria-labelledby="pod-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="pod-heading" className="text-base font-semibold text-slate-900">
          Proof of delivery
        </h2>
        {proof.isSuccess ? <PrintLink path={`${path}/proof-of-delivery/document`}>Certificate</PrintLink> : null}
      </div>
      {proof.isPending ? (
        <LoadingBlock label="Loading proof of delivery…" rows={2} />
      ) : proof.isError ? (
        <p className="mt-2 text-sm text-slate-600">
          {isClientError(proof.error)
            ? 'No proof of delivery was sent with the delivery scan.'
            : 'Could not load the proof of delivery.'}
        </p>
      ) : (
        <>
          <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
            <DetailItem label="Received by" value={proof.data.recipient_name ?? 'Not recorded'} />
            <DetailItem label="Delivered" value={<DateTime value={proof.data.delivered_at} />} />
            <DetailItem label="Scanned at" value={proof.data.location} />
          </dl>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            {(['signature', 'photo'] as const).map((part) => (
              <figure key={part} className="min-w-0">
                <figcaption className="text-sm text-slate-600">
                  {part === 'signature' ? 'Signature' : 'Photo at delivery'}
                </figcaption>
                {proof.data[part] ? (
                  // eslint-disable-next-line @next/next/no-img-element -- the API's bytes as they are, behind the session
                  <img
                    src={image(part)}
                    alt={
                      part === 'signature'
                        ? `Signature of ${proof.data.recipient_name ?? 'the recipient'}`
                        : 'Photo taken at delivery'
                    }
                    className="mt-1 max-h-48 w-auto max-w-full rounded border border-slate-200 bg-slate-50 object-contain"
                  />
                ) : (
                  <p className="mt-1 text-sm text-slate-500">None recorded</p>
                )}
              </figure>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
