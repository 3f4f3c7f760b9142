import { notFoundRoute } from '@/lib/http/not-found-route';

// /api and /api/<anything no route has> (another version, a typo, dot segments out of /api/1.1): the API's 404 envelope.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundRoute('api');
export const dynamic = 'force-dynamic';
