import { AppError } from '@/lib/errors/app-error';
import { assertJsonShape } from './json-shape';

// The one JSON reader of a request body, the API's and the portal's, so every caller gets the same answers.
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
