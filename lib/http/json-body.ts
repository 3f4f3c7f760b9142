import { AppError } from '@/lib/errors/app-error';
import { assertJsonShape } from './json-shape';

// The one JSON reader of a request body, the API's and the portal's: the same answers to an empty body, one past
// the shape caps, and one that does not parse.

/** A request body's text as JSON: empty refused, the shape caps (lib/http/json-shape.ts), then JSON.parse. */
export function parseJsonBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '')
    throw new AppError('invalid_json', 'The request body is empty; send a JSON object.');
  assertJsonShape(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}
