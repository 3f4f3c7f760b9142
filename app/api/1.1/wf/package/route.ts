import { apiRouteHandlers } from '@/lib/http/next-adapter';

// POST /api/1.1/wf/package: create a package manifest (lib/http/operations/package-manifest.ts)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRouteHandlers;
export const dynamic = 'force-dynamic';
