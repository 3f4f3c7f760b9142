import { searchAirports } from '@/lib/rating/locations';
import { portalRoute } from '@/lib/portal/route';
import type { TAirportsResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/airports?q=: airport search for the rate calculator's AirSkip fields.
export const GET = portalRoute(
  ({ request }): TAirportsResponse => {
    const q = (new URL(request.url).searchParams.get('q') ?? '').slice(0, 50);
    return {
      airports: searchAirports(q, 8).map(({ iata, name, city, country }) => ({ iata, name, city, country })),
    };
  },
  { permission: 'data:read' },
);
