'use client';
import Link from 'next/link';
import { createContext, useContext, useMemo, type ComponentProps, type ReactNode } from 'react';
import type { MemberRole } from '@/lib/generated/prisma/enums';
import { portalFetch, type PortalFetchOptions } from '@/lib/portal/fetcher';
import { portalPath, type PortalEnvironment } from '@/lib/portal/paths';
import { can, type Permission } from '@/lib/teams/permissions';

export interface PortalInfo {
  /** The page's environment: the /test/… or /live/… of its URL. */
  environment: PortalEnvironment;
  csrfToken: string;
  user: { id: string; email: string };
  account: { id: string; name: string };
  /** The signed-in user's role in the account (lib/teams/permissions.ts): what the navigation offers. */
  role: MemberRole;
  /** Every account the user is a member of, with the role in each (the account switcher); this one is `current`. */
  accounts?: { id: string; name: string; role: string; current: boolean }[];
}

const PortalContext = createContext<PortalInfo | null>(null);

export function PortalProvider({ value, children }: { value: PortalInfo; children: ReactNode }) {
  return <PortalContext.Provider value={value}>{children}</PortalContext.Provider>;
}

/** The signed-in user, account, the page's environment and CSRF token (client components under (portal)). */
export function usePortal(): PortalInfo {
  const value = useContext(PortalContext);
  if (!value) throw new Error('usePortal must be used inside the portal layout');
  return value;
}

/** Whether the signed-in user's role has `permission` (the one table, lib/teams/permissions.ts). */
export function useCan(permission: Permission): boolean {
  return can(usePortal().role, permission);
}

export interface PortalEnvironmentTools {
  environment: PortalEnvironment;
  /** A portal path in the page's environment: href('/manifests/new') → '/test/manifests/new'. */
  href: (path: string) => string;
  /** portalFetch bound to the page's environment and account (sent as x-carrier-environment and x-carrier-account). */
  fetch: <T>(path: string, options?: Omit<PortalFetchOptions, 'environment' | 'account'>) => Promise<T>;
  /** A TanStack Query key in the page's environment, so the cache never mixes test and live. */
  key: (...parts: readonly unknown[]) => readonly unknown[];
}

/**
 * The one way portal components link, navigate, fetch and cache: everything bound to the environment
 * of the page (its URL), never to a browser-wide setting.
 */
export function usePortalEnvironment(): PortalEnvironmentTools {
  const { environment, account } = usePortal();
  const accountId = account.id;
  return useMemo(
    () => ({
      environment,
      href: (path: string) => portalPath(environment, path),
      fetch: <T,>(path: string, options: Omit<PortalFetchOptions, 'environment' | 'account'> = {}) =>
        portalFetch<T>(path, { ...options, environment, account: accountId }),
      key: (...parts: readonly unknown[]) => ['portal', environment, ...parts] as const,
    }),
    [environment, accountId],
  );
}

/** next/link for a portal path, in the page's environment: <PortalLink href="/manifests/new">. */
export function PortalLink({ href, ...props }: Omit<ComponentProps<typeof Link>, 'href'> & { href: string }) {
  const { href: toPortal } = usePortalEnvironment();
  return <Link href={toPortal(href)} {...props} />;
}
