import { methodNotAllowed, options, trackingAnswer } from '../../answer';

// GET /api/track/test/{carrier barcode}: a test package's tracking as JSON (`environment: "test"`), the twin of the
// test page; a live package here is unknown, as a test package is on /api/track/{id}.
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  return trackingAnswer(request, (await context.params).id, 'test');
}

export function OPTIONS() {
  return options();
}

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE };
