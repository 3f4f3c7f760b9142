import { notFoundRoute } from '@/lib/http/not-found-route';

// * /portal-api/<anything no route has>: the 404 envelope (every route of its own wins over this one).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundRoute('portal-api');
export const dynamic = 'force-dynamic';
