import 'server-only';
import { defineJsonOperation } from '../operation';
import { NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { getCustomsReadiness } from '@/lib/customs/get-readiness';
import { MAX_LISTED_PROBLEMS } from '@/lib/customs/readiness';
import { ZCustomsReadinessResponse } from '@/lib/schemas/customs-api';
import { accountScope, pathParam } from '../context';

export const getManifestCustomsOperation = defineJsonOperation(ZCustomsReadinessResponse, {
  id: 'getManifestCustomsReadiness',
  method: 'GET',
  path: '/manifests/{id}/customs',
  scope: 'manifests:read',
  tag: 'Customs',
  summary: "A manifest's customs readiness, per destination regime",
  description:
    "Which regimes the houses fall under, from where they fly to (a container: its DestinationAirport; otherwise each package's ToCountry, or a Canadian or US postal code) and from (a flight within a regime's territory needs no entry filing): EU ICS2 pre-loading (PLACI 7+1) and full ENS, US ACAS and Enhanced ACAS, Canada eManifest. " +
    "For each: `ready`, and every element missing or invalid, by package (`row`, its ContainerDetails index, and tracking number) and field, the master's (AWB, flight, consignor) first; " +
    `at most ${MAX_LISTED_PROBLEMS.toLocaleString('en-US')} listed per regime (\`problems_truncated\` counts the rest, \`by_field\` counts them all). ` +
    'The deadline comes from the flight: ICS2 PLACI and ACAS before loading (the departure); ENS and eManifest at departure for flights under 4 h, else 4 h before arrival. ' +
    'A container gives its FlightDate, not times: departure is read as the start of that day at the origin airport and the flight time estimated from the distance (`deadline_basis` says so), so a deadline is never later than the true one. ' +
    "Readiness never blocks acceptance; the houses on `do_not_load` are listed, and hold the container's departure.",
  parameters: [PATH_PARAMETERS.manifestId],
  success: { kind: 'json', status: 200, description: 'The readiness, per regime.' },
  errors: { '404': NOT_FOUND },
  handler: async (context) => ({
    body: await getCustomsReadiness({ ...accountScope(context), manifestId: pathParam(context, 'id') }),
  }),
});
