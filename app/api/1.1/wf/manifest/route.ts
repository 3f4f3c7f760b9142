import { apiRouteHandlers } from '@/lib/http/next-adapter';

// POST /api/1.1/wf/manifest: create a container manifest (lib/http/operations/container-manifest.ts)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRouteHandlers;
export const dynamic = 'force-dynamic';
