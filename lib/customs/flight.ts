import { airport, greatCircleMiles } from '@/lib/rating/locations';
import { airportTimeZone } from './countries';

// A container's flight as customs deadlines need it: when it leaves and when it lands. The container says its
// FlightDate (a day) and its airports, not times, so departure is taken at the earliest it can be, the start of
// FlightDate at the origin airport, and the flight's length is estimated from the great-circle distance between
// the airports at a typical cargo jet's block speed. Both are stated with the deadline (`deadline_basis`), and both
// err early: a deadline read from them is never later than the true one would be.

/** Block speed, km/h, and the taxi and climb time added to every flight. */
const BLOCK_SPEED_KMH = 800;
const TAXI_HOURS = 0.5;
const KM_PER_MILE = 1.609344;
/** The earliest a calendar day starts anywhere (UTC+14): a day's start when its place is unknown. */
const EARLIEST_OFFSET_MS = 14 * 3_600_000;

export interface FlightTimes {
  /** Scheduled departure, as early as the data allows; undefined without a FlightDate. */
  departure?: Date;
  /** Estimated arrival; undefined without both airports in the dataset. */
  arrival?: Date;
  /** Estimated flight time, hours. */
  hours?: number;
  /** How the times were read, in words (the readiness answer's deadline_basis). */
  basis: string;
}

/** The offset (ms) of `timeZone` from UTC at instant `t`, or undefined for a zone the runtime does not know. */
function zoneOffset(t: number, timeZone: string): number | undefined {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(t));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return Number.isNaN(local) ? undefined : local - t;
  } catch {
    return undefined;
  }
}

/** Midnight starting `day` (YYYY-MM-DD) in `timeZone`, or undefined. */
export function startOfDay(day: string, timeZone: string): Date | undefined {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(utcMidnight)) return undefined;
  const first = zoneOffset(utcMidnight, timeZone);
  if (first === undefined) return undefined;
  // Once more at the guessed instant: the offset there may differ (a change of summer time that night).
  const second = zoneOffset(utcMidnight - first, timeZone) ?? first;
  return new Date(utcMidnight - second);
}

export function flightTimes(header: {
  FlightDate?: unknown;
  OriginAirport?: unknown;
  DestinationAirport?: unknown;
}): FlightTimes {
  const day =
    typeof header.FlightDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(header.FlightDate) ? header.FlightDate : undefined;
  const origin = typeof header.OriginAirport === 'string' ? airport(header.OriginAirport) : undefined;
  const destination = typeof header.DestinationAirport === 'string' ? airport(header.DestinationAirport) : undefined;
  const hours =
    origin && destination
      ? Math.round(((greatCircleMiles(origin, destination) * KM_PER_MILE) / BLOCK_SPEED_KMH + TAXI_HOURS) * 100) / 100
      : undefined;
  const length =
    hours === undefined
      ? 'its length unknown (no OriginAirport and DestinationAirport in the airport data)'
      : `about ${hours} h (great-circle distance at ${BLOCK_SPEED_KMH} km/h, plus ${TAXI_HOURS} h)`;
  if (!day) return { hours, basis: 'no FlightDate: the flight is unknown, so no deadline can be computed' };
  const zone = origin ? airportTimeZone(origin.iata) : undefined;
  const local = zone ? startOfDay(day, zone) : undefined;
  const departure = local ?? new Date(Date.parse(`${day}T00:00:00Z`) - EARLIEST_OFFSET_MS);
  const leaves = local
    ? `departure taken as the start of FlightDate ${day} at ${origin?.iata} (${zone}), the earliest it can leave`
    : `departure taken as the earliest start of FlightDate ${day} anywhere (UTC+14): the origin airport's time zone is unknown`;
  return {
    departure,
    ...(hours === undefined ? {} : { arrival: new Date(departure.getTime() + hours * 3_600_000), hours }),
    basis: `${leaves}; flight ${length}`,
  };
}
