// Framework-free. When the carrier can collect: what a pickup's window must satisfy, per service (the strictest
// service among the packages applies). An air-cargo container must reach the airport's cut-off, hence AirSkip's lead.

export const PICKUP_RULES = {
  minWindowMinutes: 120,
  maxWindowHours: 12,
  maxDaysAhead: 14,
  leadMinutes: { AirSkip: 240, 'Carrier Express': 60, 'Carrier Ground': 120 } as Record<string, number>,
  /** A service without a rule of its own (ServiceName is free text on packages). */
  defaultLeadMinutes: 120,
} as const;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export interface Violation {
  path: string;
  message: string;
}

/** An ISO 8601 date-time WITH its offset (a window without one would be read in a zone the shipper did not mean). */
export function parseInstant(value: string, path: string): Date | Violation {
  const text = value.trim();
  const at = DATE_TIME.test(text) ? new Date(text) : undefined;
  if (!at || Number.isNaN(at.getTime()) || at.getUTCFullYear() < 2000 || at.getUTCFullYear() >= 2100) {
    return { path, message: 'must be an ISO 8601 date-time with its offset, e.g. 2026-12-01T13:00:00-05:00' };
  }
  return at;
}

export function leadMinutes(services: readonly string[]): number {
  const leads = services.map((s) => PICKUP_RULES.leadMinutes[s] ?? PICKUP_RULES.defaultLeadMinutes);
  return leads.length > 0 ? Math.max(...leads) : PICKUP_RULES.defaultLeadMinutes;
}

export function windowViolations(options: { readyAt: Date; closeAt: Date; now: Date; services: readonly string[] }): Violation[] {
  const { readyAt, closeAt, now } = options;
  const out: Violation[] = [];
  const lead = leadMinutes(options.services);
  const earliest = new Date(now.getTime() + lead * 60_000);
  if (readyAt < earliest) {
    out.push({
      path: 'ready_at',
      message: `must be at least ${lead} minutes from now for these packages' service (the earliest: ${earliest.toISOString()})`,
    });
  }
  if (readyAt.getTime() > now.getTime() + PICKUP_RULES.maxDaysAhead * 86_400_000) {
    out.push({ path: 'ready_at', message: `must be within ${PICKUP_RULES.maxDaysAhead} days` });
  }
  const minutes = (closeAt.getTime() - readyAt.getTime()) / 60_000;
  if (minutes < PICKUP_RULES.minWindowMinutes) {
    out.push({ path: 'close_at', message: `must be at least ${PICKUP_RULES.minWindowMinutes} minutes after ready_at` });
  } else if (minutes > PICKUP_RULES.maxWindowHours * 60) {
    out.push({ path: 'close_at', message: `must be within ${PICKUP_RULES.maxWindowHours} hours of ready_at` });
  }
  return out;
}
