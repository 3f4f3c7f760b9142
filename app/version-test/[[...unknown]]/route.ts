import { notFoundRoute } from '@/lib/http/not-found-route';

// /version-test and /version-test/<anything no route has>: the test environment's paths are all API paths; the API's 404 envelope.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundRoute('api');
export const dynamic = 'force-dynamic';
