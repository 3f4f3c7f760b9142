import { apiRouteHandlers } from '@/lib/http/next-adapter';

// Where proxy.ts sends an API path that Next cannot percent-decode (`/version-test/api/1.1/webhooks/%ZZ`),
// with that path in a header: the API app answers it as it does through the production server
// (lib/http/path-params.ts). Called directly, it is one more path that is no operation: 404.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRouteHandlers;
export const dynamic = 'force-dynamic';
