import { apiRouteHandlers } from '@/lib/http/next-adapter';

// POST /api/1.1/wf/rate: one quote per rate card (lib/http/operations/rate.ts)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRouteHandlers;
export const dynamic = 'force-dynamic';
