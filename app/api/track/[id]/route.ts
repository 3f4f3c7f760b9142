import { methodNotAllowed, options, trackingAnswer } from '../answer';

// GET /api/track/{tracking number or carrier barcode}?postal_code=: the public tracking page as JSON, for anyone holding
// the number; live packages only (a test package's is /api/track/test/{carrier barcode}).
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  return trackingAnswer(request, (await context.params).id, 'live');
}

export function OPTIONS() {
  return options();
}

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE };
