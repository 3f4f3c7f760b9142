import 'server-only';
import { cookies } from 'next/headers';
import type { Environment } from '@/lib/generated/prisma/enums';

// The portal's test/live switch: a cookie read by every portal page and endpoint. Test is the default,
// so a new user never touches live data by accident.
export const ENV_COOKIE = 'carrier_env';
export const ENVIRONMENTS = ['test', 'live'] as const satisfies readonly Environment[];

export function parseEnvironment(value: string | undefined | null): Environment {
  return value === 'live' ? 'live' : 'test';
}

/** The environment selected in the portal header (server components and route handlers). */
export async function getEnvironment(): Promise<Environment> {
  return parseEnvironment((await cookies()).get(ENV_COOKIE)?.value);
}

export async function setEnvironment(environment: Environment): Promise<void> {
  (await cookies()).set(ENV_COOKIE, environment, {
    httpOnly: false,
    sameSite: 'lax',
    path: '/',
    maxAge: 365 * 24 * 3600,
    secure: secureCookies(),
  });
}

/** Secure cookies in production, unless COOKIE_SECURE=false (the e2e suite runs `next start` over http). */
export function secureCookies(): boolean {
  if (process.env.COOKIE_SECURE === 'false') return false;
  if (process.env.COOKIE_SECURE === 'true') return true;
  return process.env.NODE_ENV === 'production';
}
