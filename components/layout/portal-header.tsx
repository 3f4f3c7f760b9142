'use client';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { AccountSwitcher } from '@/components/teams/account-switcher';
import { Button, cn } from '@/components/ui';
import { ENVIRONMENTS, switchEnvironmentHref } from '@/lib/portal/paths';
import { usePortal, usePortalEnvironment } from './portal-context';
import { PortalNav } from './portal-nav';

/**
 * Test/Live: links to the same page in each environment (a detail page goes to its list there). A
 * link, not a setting: this tab moves, other tabs stay where they are, and either can open in a new tab.
 */
function EnvironmentSwitch() {
  const { environment } = usePortal();
  const pathname = usePathname();
  const search = useSearchParams().toString();
  return (
    <nav
      aria-label="Environment"
      className="inline-flex rounded-md border border-slate-300 bg-white p-0.5 dark:border-slate-600 dark:bg-slate-900"
    >
      {ENVIRONMENTS.map((env) => (
        <Link
          key={env}
          href={switchEnvironmentHref(pathname, search, env)}
          prefetch={false}
          aria-current={environment === env ? 'page' : undefined}
          data-testid={`env-${env}`}
          className={cn(
            'rounded px-3 py-1 text-sm font-medium capitalize',
            environment === env
              ? env === 'live'
                ? 'bg-green-700 text-white'
                : 'bg-amber-700 text-white'
              : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
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
  const portal = usePortalEnvironment();
  const pathname = usePathname();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  const [signingOut, setSigningOut] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // The menus close when the page changes (state adjusted during render, not in an effect).
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
    setOpenGroup(null);
  }

  // Escape closes the phone menu and puts focus back on its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

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

  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      {environment === 'test' ? (
        <div className="bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Test environment: data here never reaches live. API base <code>/version-test/api/1.1</code>
        </div>
      ) : null}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-3 gap-y-0 px-4 py-2 lg:flex-nowrap">
        <div className="flex min-w-0 items-center gap-3 py-1">
          <Link href={portal.href('/dashboard')} className="text-lg font-semibold text-brand-700 dark:text-brand-100">
            Carrier
          </Link>
          <AccountSwitcher />
        </div>
        <PortalNav
          phoneOpen={open}
          openGroup={openGroup}
          onOpenGroup={setOpenGroup}
          footer={
            <Button variant="secondary" size="sm" onClick={() => void signOut()} loading={signingOut} className="sm:col-span-2">
              Sign out
            </Button>
          }
        />
        <div className="flex items-center gap-2 py-1">
          <EnvironmentSwitch />
          <div className="hidden lg:block">
            <Button variant="secondary" size="sm" onClick={() => void signOut()} loading={signingOut}>
              Sign out
            </Button>
          </div>
          <Button
            ref={menuButton}
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
    </header>
  );
}
