'use client';
import { useQuery } from '@tanstack/react-query';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Badge, Card, EmptyState, ErrorState, LoadingBlock, Table, Td, Th, Tr } from '@/components/ui';
import { usePortalEnvironment } from '@/components/layout/portal-context';
// A type only: erased from the client bundle, so the server-only module never reaches the browser.
import type { TRateCardsResponse, TRateCardView } from '@/lib/schemas/portal-responses';

// Eight distinguishable colours, each ≥ 3:1 against white for chart lines.
const COLOURS = ['#1d4ed8', '#b45309', '#047857', '#b91c1c', '#7c3aed', '#0e7490', '#be185d', '#4d7c0f'];

function zoneRange(zones: TRateCardView['zones'], i: number): string {
  const low = i === 0 ? 0 : (zones[i - 1].maxMiles ?? 0) + 1;
  const high = zones[i].maxMiles;
  return high === null ? `${low}+ mi` : `${low}–${high} mi`;
}

/** A dollar amount in cents, as the seed writes it ("5.9" → "5.90"), without going through a float. */
function dollars(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

function surchargeText(s: TRateCardView['surcharges'][number]): string {
  if (s.kind === 'percent') return `${s.amount}% of the base price`;
  if (s.kind === 'per_lb') return `$${dollars(s.amount)} per billable lb`;
  return `$${dollars(s.amount)} per package`;
}

function PriceChart({ card }: { card: TRateCardView }) {
  const data = card.weightBreaks.map((b) => ({
    weight: Number(b.maxLb),
    ...Object.fromEntries(card.zones.map((z, i) => [`zone${z.zone}`, Number(b.prices[i])])),
  }));
  return (
    <div className="h-72 w-full" aria-hidden="true" inert>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis
            dataKey="weight"
            type="number"
            domain={[0, 'dataMax']}
            tick={{ fontSize: 11, fill: '#475569' }}
            label={{ value: 'Weight (lb)', position: 'insideBottom', offset: -8, fontSize: 12, fill: '#475569' }}
          />
          <YAxis tick={{ fontSize: 11, fill: '#475569' }} tickFormatter={(v: number) => `$${v}`} />
          <Tooltip
            formatter={(value) => `$${Number(value).toFixed(2)}`}
            labelFormatter={(w) => `up to ${typeof w === 'number' ? w : ''} lb`}
          />
          <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
          {card.zones.map((z, i) => (
            <Line
              key={z.zone}
              type="stepBefore"
              dataKey={`zone${z.zone}`}
              name={`Zone ${z.zone}`}
              stroke={COLOURS[i % COLOURS.length]}
              dot={false}
              strokeWidth={2}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** A version's standing: quotes use the one in force; packages use the one in force on their ManifestDate. */
const STANDING: Record<TRateCardView['standing'], { label: string; tone: 'success' | 'info' | 'neutral' }> = {
  in_force: { label: 'In force', tone: 'success' },
  scheduled: { label: 'Scheduled', tone: 'info' },
  superseded: { label: 'Superseded', tone: 'neutral' },
  inactive: { label: 'Inactive', tone: 'neutral' },
};

function RateCardSection({ card }: { card: TRateCardView }) {
  const headingId = `card-${card.id}`;
  return (
    <Card>
      <section aria-labelledby={headingId} data-testid="rate-card">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            {card.service}
          </h2>
          <Badge tone="neutral">Version {card.version}</Badge>
          <Badge tone={STANDING[card.standing].tone}>{STANDING[card.standing].label}</Badge>
          <Badge tone="info">{card.locationKind === 'zip' ? 'Zoned by ZIP distance' : 'Zoned by airport distance'}</Badge>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-600">Carrier</dt>
            <dd className="font-medium">{card.carrier}</dd>
          </div>
          <div>
            <dt className="text-slate-600">In force from</dt>
            <dd className="font-medium">
              <time dateTime={card.effectiveFrom}>{card.effectiveFrom.slice(0, 10)}</time>
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Dim divisor</dt>
            <dd className="font-medium">{card.dimDivisor} in³/lb</dd>
          </div>
          <div>
            <dt className="text-slate-600">Weight step</dt>
            <dd className="font-medium">{card.weightStepLb} lb</dd>
          </div>
          <div>
            <dt className="text-slate-600">Maximum weight</dt>
            <dd className="font-medium">{card.maxWeightLb} lb</dd>
          </div>
        </dl>

        <h3 className="mt-6 text-sm font-semibold text-slate-800">Prices (USD) by weight and zone</h3>
        <div className="mt-2">
          <Table label={`${card.service} prices`}>
            <thead>
              <tr>
                <Th>Up to (lb)</Th>
                {card.zones.map((z, i) => (
                  <Th key={z.zone} className="text-right">
                    Zone {z.zone}
                    <span className="block text-xs font-normal text-slate-600">{zoneRange(card.zones, i)}</span>
                  </Th>
                ))}
              </tr>
            </thead>
            <tbody>
              {card.weightBreaks.map((b) => (
                <Tr key={b.maxLb}>
                  <Th scope="row" className="font-medium">
                    {b.maxLb}
                  </Th>
                  {b.prices.map((p, i) => (
                    <Td key={i} className="text-right font-mono">
                      {p}
                    </Td>
                  ))}
                </Tr>
              ))}
              <Tr className="bg-slate-50">
                <Th scope="row">Delivery days</Th>
                {card.deliveryDays.map((d, i) => (
                  <Td key={i} className="text-right">
                    {d}
                  </Td>
                ))}
              </Tr>
            </tbody>
          </Table>
        </div>

        <h3 className="mt-6 text-sm font-semibold text-slate-800">Surcharges</h3>
        {card.surcharges.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">None.</p>
        ) : (
          <ul className="mt-1 list-disc pl-5 text-sm text-slate-800">
            {card.surcharges.map((s) => (
              <li key={s.code}>
                {s.label}: {surchargeText(s)}
              </li>
            ))}
          </ul>
        )}

        <h3 className="mt-6 text-sm font-semibold text-slate-800">Price against weight, per zone</h3>
        <PriceChart card={card} />
      </section>
    </Card>
  );
}

export function RateCardsView() {
  const portal = usePortalEnvironment();
  const query = useQuery({
    queryKey: portal.key('rate-cards'),
    queryFn: ({ signal }) => portal.fetch<TRateCardsResponse>('/portal-api/rate-cards', { signal }),
  });
  if (query.isPending) return <LoadingBlock label="Loading rate cards…" rows={8} />;
  if (query.isError)
    return <ErrorState title="Could not load rate cards" error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.rateCards.length === 0)
    return <EmptyState title="No rate cards">The operator has not loaded any rate cards yet.</EmptyState>;
  return (
    <div className="space-y-6">
      <nav aria-label="Rate cards" className="flex flex-wrap gap-2 text-sm">
        {query.data.rateCards.map((card) => (
          <a
            key={card.id}
            href={`#card-${card.id}`}
            className="rounded-md border border-slate-300 bg-white px-3 py-1 text-brand-700 underline"
          >
            {card.service}
          </a>
        ))}
      </nav>
      {query.data.rateCards.map((card) => (
        <RateCardSection key={card.id} card={card} />
      ))}
    </div>
  );
}
