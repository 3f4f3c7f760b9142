'use client';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { AccountSwitcher } from '@/components/teams/account-switcher';
import { Button, cn, focusRing } from '@/components/ui';
import { ENVIRONMENTS, environmentOfPath, switchEnvironmentHref } from '@/lib/portal/paths';
import { can, type RouteAccess } from '@/lib/teams/permissions';
import { usePortal, usePortalEnvironment } from './portal-context';

// Portal paths without their environment; rendered in the page's environment. Each names what a role needs to be
// offered it (lib/teams/permissions.ts; 'self': any member): a page a role cannot use is not in its navigation.
export const NAV = [
  { href: '/dashboard', label: 'Dashboard', permission: 'data:read' },
  { href: '/rates', label: 'Rates', permission: 'rates:quote' },
  { href: '/manifests', label: 'Manifests', permission: 'data:read' },
  { href: '/manifests/new', label: 'New manifest', permission: 'shipments:write' },
  { href: '/packages', label: 'Packages', permission: 'data:read' },
  { href: '/pickups', label: 'Pickups', permission: 'data:read' },
  { href: '/webhooks', label: 'Webhooks', permission: 'webhooks:manage' },
  { href: '/logs', label: 'Logs', permission: 'logs:read' },
  { href: '/audit', label: 'Audit', permission: 'audit:read' },
  { href: '/billing', label: 'Billing', permission: 'billing:read' },
  { href: '/tokens', label: 'API tokens', permission: 'tokens:manage' },
  { href: '/rate-cards', label: 'Rate cards', permission: 'data:read' },
  { href: '/members', label: 'Members', permission: 'data:read' },
  { href: '/settings', label: 'Settings', permission: 'data:read' },
  { href: '/account', label: 'Account', permission: 'self' },
  { href: '/docs', label: 'API reference', permission: 'self' },
] as const satisfies readonly { href: string; label: string; permission: RouteAccess }[];

/** The navigation the signed-in role is offered. */
export function useNav() {
  const { role } = usePortal();
  return NAV.filter((item) => item.permission === 'self' || can(role, item.permission));
}

function isActive(fullPathname: string, href: string): boolean {
  const environment = environmentOfPath(fullPathname);
  const pathname = environment ? fullPathname.slice(environment.length + 1) : fullPathname;
  if (pathname === href) return true;
  // /manifests/new has its own entry; /manifests/<id> belongs to Manifests.
  if (href === '/manifests') return pathname.startsWith('/manifests/') && pathname !== '/manifests/new';
  return href !== '/manifests/new' && pathname.startsWith(`${href}/`);
}

/**
 * Test/Live: links to the same page in each environment (a detail page goes to its list there). A
 * link, not a setting: this tab moves, other tabs stay where they are, and either can open in a new tab.
 */
function EnvironmentSwitch() {
  const { environment } = usePortal();
  const pathname = usePathname();
  const search = useSearchParams().toString();
  return (
    <nav aria-label="Environment" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
      {ENVIRONMENTS.map((env) => (
        <Link
          key={env}
          href={switchEnvironmentHref(pathname, search, env)}
          prefetch={false}
          aria-current={environment === env ? 'page' : undefined}
          data-testid={`env-${env}`}
          className={cn(
            'rounded px-3 py-1 text-sm font-medium capitalize',
            focusRing,
            environment === env
              ? env === 'live'
                ? 'bg-green-700 text-white'
                : 'bg-amber-700 text-white'
              : 'text-slate-700 hover:bg-slate-100',
          )}
        >
          {env === 'test' ? 'Test' : 'Live'}
        </Link>
      ))}
    </nav>
  );
}

export function PortalHeader() {
  const { environment } = usePortal();
  const nav = useNav();
  const portal = usePortalEnvironment();
  const pathname = usePathname();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  // The phone menu closes when the page changes (state adjusted during render, not in an effect).
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  async function signOut() {
    setSigningOut(true);
    try {
      await portal.fetch('/portal-api/session', { method: 'DELETE' });
    } catch {
      // Nothing to show: the sign-in page is where this goes either way, and it says when a session is still open.
    } finally {
      router.replace('/sign-in');
      router.refresh();
    }
  }

  const links = nav.map((item) => {
    const active = isActive(pathname, item.href);
    return (
      <Link
        key={item.href}
        href={portal.href(item.href)}
        aria-current={active ? 'page' : undefined}
        className={cn(
          'block rounded-md px-3 py-2 text-sm font-medium lg:inline-block lg:px-2.5 lg:py-1.5',
          focusRing,
          active ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
        )}
      >
        {item.label}
      </Link>
    );
  });

  return (
    <header className="border-b border-slate-200 bg-white">
      {environment === 'test' ? (
        <div className="bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-900">
          Test environment: data here never reaches live. API base <code>/version-test/api/1.1</code>
        </div>
      ) : null}
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3">
        <div className="flex items-center gap-3">
          <Link href={portal.href('/dashboard')} className={cn('text-lg font-semibold text-brand-700', focusRing)}>
            Carrier
          </Link>
          <AccountSwitcher />
        </div>
        <div className="flex items-center gap-2">
          <EnvironmentSwitch />
          <div className="hidden lg:block">
            <Button variant="secondary" size="sm" onClick={() => void signOut()} loading={signingOut}>
              Sign out
            </Button>
          </div>
          <Button
            variant="ghost"
            size="sm"
            className="lg:hidden"
            aria-expanded={open}
            aria-controls="portal-nav"
            onClick={() => setOpen((v) => !v)}
          >
            <span aria-hidden="true">☰</span>
            <span className="sr-only sm:not-sr-only">Menu</span>
          </Button>
        </div>
      </div>
      <nav id="portal-nav" aria-label="Main" className={cn('border-t border-slate-100 lg:block', open ? 'block' : 'hidden')}>
        <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-2 lg:flex-row lg:flex-wrap lg:items-center">
          {links}
          <Button variant="secondary" size="sm" onClick={() => void signOut()} loading={signingOut} className="mt-2 lg:hidden">
            Sign out
          </Button>
        </div>
      </nav>
    </header>
  );
}
