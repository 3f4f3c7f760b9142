// GET /version-test/api/1.1/openapi.json: the same document; both environments share one API.
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from '@/app/api/1.1/openapi.json/route';
