import 'server-only';
import { cookies } from 'next/headers';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { ENV_COOKIE, ENVIRONMENT_HEADER, ENVIRONMENT_QUERY, isEnvironment, type PortalEnvironment } from './paths';

// A page's environment is in its URL and every portal-api request names it; the `carrier_env` cookie only remembers
// where a bare URL goes, never where a read or a write lands.
export { secureCookies } from '@/lib/auth/cookies';

// Compile-time check that the portal's environments are exactly the database's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const environmentsMatch: Same<PortalEnvironment, Environment> = true;
void environmentsMatch;

// Test unless it says live, so a new browser never starts in live.
export function parseEnvironment(value: string | undefined | null): Environment {
  return value === 'live' ? 'live' : 'test';
}

export async function lastUsedEnvironment(): Promise<Environment> {
  return parseEnvironment((await cookies()).get(ENV_COOKIE)?.value);
}

// Never the cookie: the page decides, not whichever tab switched last. A GET may use the query (a link sends no header).
export function requestEnvironment(request: Request): Environment {
  const header = request.headers.get(ENVIRONMENT_HEADER);
  const method = request.method.toUpperCase();
  const named = method === 'GET' || method === 'HEAD' ? new URL(request.url).searchParams.getAll(ENVIRONMENT_QUERY) : [];
  // Given twice (?environment=live&environment=test), a link names no one environment: refused, never the first.
  if (named.length > 1)
    throw new AppError('environment_required', `The ${ENVIRONMENT_QUERY} query parameter is given more than once.`);
  const query = named[0] ?? null;
  for (const [value, where] of [
    [header, `The ${ENVIRONMENT_HEADER} header`],
    [query, `The ${ENVIRONMENT_QUERY} query parameter`],
  ] as const) {
    if (value !== null && !isEnvironment(value)) {
      throw new AppError('environment_required', `${where} must be "test" or "live".`);
    }
  }
  if (header !== null && query !== null && header !== query) {
    throw new AppError(
      'environment_required',
      `The ${ENVIRONMENT_HEADER} header and the ${ENVIRONMENT_QUERY} query parameter disagree.`,
    );
  }
  const environment = header ?? query;
  if (environment === null) {
    throw new AppError(
      'environment_required',
      `Say which environment this request is for: send the ${ENVIRONMENT_HEADER} header ("test" or "live"), as the portal's pages do.`,
    );
  }
  return environment as Environment;
}
