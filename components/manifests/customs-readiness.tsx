'use client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PrintLink } from '@/components/documents/print-links';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { Badge, buttonClass, Card, CardTitle, ErrorState, LoadingBlock, DateTime } from '@/components/ui';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import type { CustomsRegime, TCustomsReadiness, TReadinessProblem, TRegimeReadiness } from '@/lib/schemas/customs-api';

/** A regime's short name, for the Packages filter and the link to it. */
export const REGIME_LABELS: Record<CustomsRegime, string> = {
  eu_ics2_placi: 'EU ICS2 PLACI',
  eu_ics2_ens: 'EU ICS2 ENS',
  us_acas: 'US ACAS',
  us_enhanced_acas: 'US Enhanced ACAS',
  ca_emanifest: 'Canada eManifest',
};

/** Problems listed a regime before "Show all": a 5,000-house container can have tens of thousands. */
const SHOWN = 50;

/**
 * Customs readiness (GET /manifests/{id}/customs): each destination regime that applies, ready or not, its filing
 * deadline, and each missing or invalid element linked to its package; then the customs documents.
 */
export function CustomsReadiness({ id, container, cancelled }: { id: string; container: boolean; cancelled: boolean }) {
  const portal = usePortalEnvironment();
  const readiness = useQuery({
    queryKey: portal.key('manifest-customs', id),
    queryFn: ({ signal }) =>
      portal.fetch<TCustomsReadiness>(`/portal-api/manifests/${encodeURIComponent(id)}/customs`, { signal }),
  });
  const base = `/portal-api/manifests/${encodeURIComponent(id)}`;
  return (
    <section aria-labelledby="customs-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="customs-heading" className="mr-auto text-base font-semibold text-slate-900">
          Customs
        </h2>
        <PrintLink path={`${base}/customs-declarations`}>CN 23 declarations</PrintLink>
        {container && !cancelled ? (
          <a
            // A download cannot send a header: the environment goes in the query (GET only).
            href={`${base}/one-record?${ENVIRONMENT_QUERY}=${portal.environment}`}
            download={`one-record-${id}.jsonld`}
            className={buttonClass({ variant: 'secondary' })}
          >
            ONE Record export
          </a>
        ) : null}
      </div>
      {readiness.isPending ? (
        <LoadingBlock label="Checking customs readiness…" rows={3} />
      ) : readiness.isError ? (
        <div className="mt-3">
          <ErrorState
            title="Could not check customs readiness"
            error={readiness.error}
            onRetry={() => void readiness.refetch()}
          />
        </div>
      ) : (
        <ReadinessBody id={id} data={readiness.data} />
      )}
    </section>
  );
}

function ReadinessBody({ id, data }: { id: string; data: TCustomsReadiness }) {
  const applying = data.regimes.filter((r) => r.applies);
  const others = data.regimes.filter((r) => !r.applies);
  return (
    <div className="mt-3 space-y-4 text-sm">
      <p className="text-slate-700">
        {applying.length === 0
          ? 'No destination regime applies to these packages (nothing lands in the EU, the US or Canada from outside it).'
          : data.ready
            ? `Ready for ${applying.map((r) => r.name).join(', ')}.`
            : `Not ready: ${applying.filter((r) => !r.ready).length} of ${applying.length} regimes have problems to fix.`}{' '}
        <span className="text-slate-600">
          Checked <DateTime value={data.computed_at} />.
        </span>
      </p>
      {data.do_not_load.length > 0 ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
          <p className="font-medium">
            {data.do_not_load.length} package{data.do_not_load.length === 1 ? ' is' : 's are'} on Do Not Load: the container
            cannot depart with {data.do_not_load.length === 1 ? 'it' : 'them'}.
          </p>
          <ul className="mt-1 list-inside list-disc">
            {data.do_not_load.map((h) => (
              <li key={h.carrier_barcode}>
                <PackageRef row={h.row} trackingNumber={h.tracking_number ?? h.carrier_barcode} /> · house waybill{' '}
                <span className="font-mono">{h.house_waybill}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {applying.map((regime) => (
        <Regime key={regime.regime} manifestId={id} regime={regime} />
      ))}
      {others.length > 0 ? <p className="text-slate-600">Does not apply: {others.map((r) => r.name).join(', ')}.</p> : null}
    </div>
  );
}

function Regime({ manifestId, regime }: { manifestId: string; regime: TRegimeReadiness }) {
  const [all, setAll] = useState(false);
  const shown = all ? regime.problems : regime.problems.slice(0, SHOWN);
  const headingId = `regime-${regime.regime}`;
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-2">
        <CardTitle as="h3">
          <span id={headingId}>{regime.name}</span>
        </CardTitle>
        <Badge tone={regime.ready ? 'success' : 'danger'}>{regime.ready ? 'Ready' : 'Not ready'}</Badge>
        <span className="text-slate-600">
          {regime.package_count.toLocaleString()} package{regime.package_count === 1 ? '' : 's'} to {regime.countries.join(', ')}
        </span>
      </div>
      <p className="mt-2 text-slate-700">
        {regime.deadline ? (
          <>
            File by{' '}
            <strong>
              <DateTime value={regime.deadline} />
            </strong>
            {regime.deadline_passed ? (
              <Badge tone="danger" className="ml-2">
                Deadline passed
              </Badge>
            ) : null}
            <span className="block text-slate-600">{regime.deadline_basis}</span>
          </>
        ) : (
          <span className="text-slate-600">{regime.deadline_basis}</span>
        )}
      </p>
      {regime.problem_count > 0 ? (
        <>
          <p className="mt-3 text-slate-700">
            {regime.problem_count.toLocaleString()} problem{regime.problem_count === 1 ? '' : 's'}
            {Object.keys(regime.by_field).length > 0
              ? `: ${Object.entries(regime.by_field)
                  .slice(0, 6)
                  .map(([field, count]) => `${field} ${count.toLocaleString()}`)
                  .join(', ')}`
              : ''}
          </p>
          {regime.houses_not_ready > 0 ? (
            <p className="mt-1">
              <PortalLink
                href={`/packages?${new URLSearchParams({ manifest_id: manifestId, customs_not_ready: regime.regime })}`}
                className="font-medium text-brand-700 underline underline-offset-2"
              >
                {regime.houses_not_ready.toLocaleString()} package{regime.houses_not_ready === 1 ? '' : 's'} not ready for{' '}
                {REGIME_LABELS[regime.regime]}
              </PortalLink>
            </p>
          ) : null}
          <ul aria-labelledby={headingId} className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200">
            {shown.map((p, i) => (
              <ProblemItem key={`${p.path}-${i}`} problem={p} />
            ))}
          </ul>
          {regime.problems.length > SHOWN ? (
            <button
              type="button"
              className="mt-2 text-sm font-medium text-brand-700 underline underline-offset-2"
              onClick={() => setAll((open) => !open)}
            >
              {all ? 'Show fewer' : `Show all ${regime.problems.length.toLocaleString()} listed`}
            </button>
          ) : null}
          {regime.problems_truncated > 0 ? (
            <p className="mt-1 text-slate-600">{regime.problems_truncated.toLocaleString()} more counted, not listed.</p>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}

function ProblemItem({ problem }: { problem: TReadinessProblem }) {
  return (
    <li className="flex flex-col gap-0.5 px-3 py-2 sm:flex-row sm:gap-3">
      <span className="shrink-0 break-all sm:w-64">
        {problem.row === null ? (
          <span className="font-medium text-slate-900">Container</span>
        ) : (
          <PackageRef row={problem.row} trackingNumber={problem.tracking_number} />
        )}
      </span>
      <span className="min-w-0 break-words">
        <span className="font-mono text-slate-900">{problem.field}</span>{' '}
        <Badge tone={problem.code === 'missing' ? 'warning' : 'danger'}>{problem.code}</Badge>{' '}
        <span className="text-slate-700">{problem.message}</span>
      </span>
    </li>
  );
}

/** "Row 4 · 1Z0004", linked to the package's page when it has a tracking number (rows count from 1, as the grid's). */
function PackageRef({ row, trackingNumber }: { row: number; trackingNumber: string | null }) {
  const label = `Row ${row + 1}`;
  if (!trackingNumber) return <span className="text-slate-900">{label}</span>;
  return (
    <PortalLink
      href={`/packages/${encodeURIComponent(trackingNumber)}`}
      className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
    >
      {label} · <span className="font-mono">{trackingNumber}</span>
    </PortalLink>
  );
}
