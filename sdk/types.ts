// Request and answer types read from the generated document types by path and method, so a helper's signature
// changes when the document does and cannot restate a shape by hand.
import type { components, paths } from './generated/schema.js';

export type Schemas = components['schemas'];
export type Path = keyof paths;
export type Method = 'get' | 'post' | 'patch' | 'delete';

type Operation<P extends Path, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON body an operation takes. */
export type Body<P extends Path, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters an operation takes. */
export type Query<P extends Path, M extends Method = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON an operation answers with on success (void for a 204). */
export type Data<P extends Path, M extends Method> = Operation<P, M>['responses'] extends infer R
  ? R[Extract<keyof R, 200 | 201 | 202>] extends { content: { 'application/json': infer D } }
    ? D
    : void
  : never;

/** The path parameters, by name. */
export type PathParams<P extends Path, M extends Method> =
  Operation<P, M> extends { parameters: { path: infer A } } ? A : undefined;
