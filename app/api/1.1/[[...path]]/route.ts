import { apiRouteHandlers } from '@/lib/http/next-adapter';

// * /api/1.1 and /api/1.1/*: every other live API path; the framework-free router answers or sends 404.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRouteHandlers;
export const dynamic = 'force-dynamic';
