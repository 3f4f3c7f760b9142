import { Badge, Card, CardTitle, DetailItem, Td, Th, DateTime } from '@/components/ui';
import type { TEventList } from '@/lib/portal/package-list-types';
import type { TCustoms } from '@/lib/schemas/customs';

type Event = TEventList['data'][number];

const OUTCOMES: Record<string, { label: string; tone: 'success' | 'warning' | 'danger' | 'info' }> = {
  assessment_complete: { label: 'Assessment complete', tone: 'success' },
  information_requested: { label: 'Information requested', tone: 'warning' },
  screening_requested: { label: 'Screening requested', tone: 'warning' },
  do_not_load: { label: 'Do Not Load', tone: 'danger' },
  released: { label: 'Released', tone: 'success' },
};

export const isCustomsEvent = (type: string) => type.startsWith('customs.');

/** A customs outcome (`do_not_load`), in words. */
export function CustomsBadge({ outcome }: { outcome: string }) {
  const known = OUTCOMES[outcome];
  return <Badge tone={known?.tone ?? 'info'}>Customs: {known?.label ?? outcome}</Badge>;
}

type HeadField = Exclude<keyof TCustoms, 'Items'>;
const HEAD: [HeadField, string][] = [
  ['ContentsType', 'Contents'],
  ['Incoterm', 'Incoterm'],
  ['Currency', 'Currency'],
  ['HouseWaybill', 'House waybill (given)'],
  ['ExporterEORI', 'Exporter EORI'],
  ['ImporterEORI', 'Importer EORI'],
  ['ImporterTaxID', 'Importer tax ID'],
  ['IOSS', 'IOSS'],
];

/** The package's customs declaration as stored (`Customs`), its items in a table, and its customs events. */
export function CustomsDeclaration({ declaration, events }: { declaration: unknown; events: readonly Event[] }) {
  const customs = declaration && typeof declaration === 'object' ? (declaration as TCustoms) : undefined;
  const items = customs?.Items ?? [];
  const outcomes = events.filter((e) => isCustomsEvent(e.type));
  return (
    <Card>
      <CardTitle>Customs declaration</CardTitle>
      {customs ? (
        <>
          <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
            {HEAD.map(([key, label]) => {
              const value = customs[key];
              return typeof value === 'string' ? <DetailItem key={key} label={label} value={value} /> : null;
            })}
          </dl>
          {items.length > 0 ? (
            // A wide table scrolls sideways on a phone: a focusable region, so a keyboard can scroll it too.
            <div role="region" aria-label="Declared items" tabIndex={0} className="mt-4 overflow-x-auto">
              <table className="min-w-full text-sm">
                <caption className="sr-only">Declared items</caption>
                <thead className="bg-slate-100">
                  <tr>
                    <Th>Description</Th>
                    <Th>HS code</Th>
                    <Th className="text-right">Quantity</Th>
                    <Th className="text-right">Value{customs.Currency ? ` (${customs.Currency})` : ''}</Th>
                    <Th className="text-right">Net weight</Th>
                    <Th>Origin</Th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((item, i) => (
                    <tr key={i} className="border-t border-slate-100">
                      <Td className="min-w-48 break-words">{item.Description}</Td>
                      <Td className="font-mono">{item.HSCode ?? ''}</Td>
                      <Td className="text-right tabular-nums">{item.Quantity}</Td>
                      <Td className="text-right tabular-nums">{item.Value}</Td>
                      <Td className="text-right tabular-nums">{item.Weight ? `${item.Weight} ${item.WeightUnit ?? ''}` : ''}</Td>
                      <Td>{item.OriginCountry ?? ''}</Td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="mt-3 text-sm text-slate-600">No items declared.</p>
          )}
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-600">
          No customs declaration was sent with this package. Its CN 23 comes with the contents left blank to fill in.
        </p>
      )}
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Customs events</h3>
      {outcomes.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">No customs outcome recorded yet.</p>
      ) : (
        <ul className="mt-2 space-y-2 text-sm">
          {outcomes.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <CustomsBadge outcome={e.type.slice('customs.'.length)} />
              <time dateTime={e.occurred_at ?? undefined} className="text-slate-900">
                <DateTime value={e.occurred_at} />
              </time>
              {e.location ? <span className="text-slate-700">at {e.location}</span> : null}
              {e.customs?.reference ? <span className="font-mono text-slate-700">{e.customs.reference}</span> : null}
              {e.customs?.text ? <span className="basis-full break-words text-slate-700">{e.customs.text}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
