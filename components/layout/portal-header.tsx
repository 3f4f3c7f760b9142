'use client';
import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Button, cn, focusRing } from '@/components/ui';
import { portalFetch } from '@/lib/portal/fetcher';
import { usePortal } from './portal-context';

export const NAV = [
  { href: '/dashboard', label: 'Dashboard' },
  { href: '/rates', label: 'Rates' },
  { href: '/manifests', label: 'Manifests' },
  { href: '/manifests/new', label: 'New manifest' },
  { href: '/packages', label: 'Packages' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/tokens', label: 'API tokens' },
  { href: '/rate-cards', label: 'Rate cards' },
  { href: '/docs', label: 'API reference' },
] as const;

function isActive(pathname: string, href: string): boolean {
  if (pathname === href) return true;
  // /manifests/new has its own entry; /manifests/<id> belongs to Manifests.
  if (href === '/manifests') return pathname.startsWith('/manifests/') && pathname !== '/manifests/new';
  return href !== '/manifests/new' && pathname.startsWith(`${href}/`);
}

function EnvironmentSwitch() {
  const { environment } = usePortal();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  async function choose(next: 'test' | 'live') {
    if (next === environment) return;
    setError(null);
    try {
      await portalFetch('/portal-api/environment', { method: 'PUT', body: { environment: next } });
      // Nothing cached from one environment may show in the other.
      queryClient.removeQueries();
      startTransition(() => router.refresh());
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not switch environment.');
    }
  }

  return (
    <div className="flex items-center gap-2">
      <div
        role="group"
        aria-label="Environment"
        className="inline-flex rounded-md border border-slate-300 bg-white p-0.5"
        aria-busy={pending}
      >
        {(['test', 'live'] as const).map((env) => (
          <button
            key={env}
            type="button"
            aria-pressed={environment === env}
            onClick={() => choose(env)}
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
          </button>
        ))}
      </div>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function PortalHeader() {
  const { environment, user, account } = usePortal();
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
      await portalFetch('/portal-api/session', { method: 'DELETE' });
    } finally {
      router.replace('/sign-in');
      router.refresh();
    }
  }

  const links = NAV.map((item) => {
    const active = isActive(pathname, item.href);
    return (
      <Link
        key={item.href}
        href={item.href}
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
          <Link href="/dashboard" className={cn('text-lg font-semibold text-brand-700', focusRing)}>
            Carrier
          </Link>
          <span className="hidden max-w-[14rem] truncate text-sm text-slate-600 sm:inline" title={user.email}>
            {account.name}
          </span>
        </div>
        <div className="flex items-center gap-2">
          <EnvironmentSwitch />
          <div className="hidden lg:block">
            <Button variant="secondary" size="sm" onClick={signOut} loading={signingOut}>
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
          <Button variant="secondary" size="sm" onClick={signOut} loading={signingOut} className="mt-2 lg:hidden">
            Sign out
          </Button>
        </div>
      </nav>
    </header>
  );
}
