import { airport, greatCircleMiles, zipCentroid, type LatLon } from '@/lib/rating/locations';
import { zoneIndex } from '@/lib/rating/quote-rates';
import type { RateCardData } from '@/lib/rating/types';

// The estimated delivery day: the service's transit days for the zone its route falls in (the rate card's
// delivery_days, as quoted by POST /wf/rate), counted in business days (Monday to Friday) from the ManifestDate, the
// day the carrier takes possession. The route is the airports when both terminals are IATA codes we know, else the
// US ZIPs' centroids; without either there is no estimate (a Canadian address, a missing origin).

export interface EstimateInput {
  cards: readonly RateCardData[];
  service: string | null;
  manifestDate: Date;
  fromPostalCode: string | null;
  toPostalCode: string | null;
  fromTerminal: string | null;
  toTerminal: string | null;
}

function route(input: EstimateInput): [LatLon, LatLon] | undefined {
  const fromAirport = input.fromTerminal ? airport(input.fromTerminal) : undefined;
  const toAirport = input.toTerminal ? airport(input.toTerminal) : undefined;
  if (fromAirport && toAirport) return [fromAirport, toAirport];
  const from = input.fromPostalCode ? zipCentroid(input.fromPostalCode) : undefined;
  const to = input.toPostalCode ? zipCentroid(input.toPostalCode) : undefined;
  return from && to ? [from, to] : undefined;
}

export function addBusinessDays(day: Date, count: number): Date {
  const out = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
  let left = count;
  while (left > 0) {
    out.setUTCDate(out.getUTCDate() + 1);
    const weekday = out.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return out;
}

/** YYYY-MM-DD, or null when the service or the route is not known. */
export function estimateDelivery(input: EstimateInput): string | null {
  const card = input.cards.find((c) => c.active && c.service === input.service);
  if (!card) return null;
  const points = route(input);
  if (!points) return null;
  const zone = zoneIndex(card.zones, greatCircleMiles(points[0], points[1]));
  const days = zone < 0 ? undefined : card.deliveryDays[zone];
  if (days === undefined) return null;
  return addBusinessDays(input.manifestDate, days).toISOString().slice(0, 10);
}
