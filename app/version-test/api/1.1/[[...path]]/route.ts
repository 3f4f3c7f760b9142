import { apiRouteHandlers } from '@/lib/http/next-adapter';

// * /version-test/api/1.1/*: the test environment; the same operations as live, on test data.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRouteHandlers;
export const dynamic = 'force-dynamic';
