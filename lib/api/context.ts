import type { OperationContext } from './operation';
import { decodedPairs, queryObject } from './query';

// What the operations read from their context, the same way in each: the caller's account and the path's
// environment (every lookup is scoped by both, so another account's id is a plain 404), a path parameter, and
// the query string read strictly.

export function accountScope(context: OperationContext): { accountId: string; environment: OperationContext['environment'] } {
  return { accountId: context.auth.accountId, environment: context.environment };
}

/** A path parameter of the operation's own path; its absence is a wiring mistake, not the caller's. */
export function pathParam(context: OperationContext, name: string): string {
  const value = context.params[name];
  if (value === undefined) throw new Error(`This operation's path has no {${name}} parameter.`);
  return value;
}

/** The query string as an object; a parameter given twice or not known, or an escape that does not decode, is a 422 naming it. */
export function queryOf(context: OperationContext, known?: readonly string[]): Record<string, string> {
  return queryObject(decodedPairs(context.search), known ? { known } : {});
}
