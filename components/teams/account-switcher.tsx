'use client';
import { useEffect, useId, useRef, useState } from 'react';
import { usePortal, usePortalEnvironment } from '@/components/layout/portal-context';
import { Alert, cn } from '@/components/ui';
import type { TAccountSwitchedResponse } from '@/lib/schemas/invitations';

// The header's account name; for a user in several accounts, a menu of them (with the role in each) that switches the
// session's account (POST /portal-api/session/account). The switch holds for every tab of this browser: a tab still
// showing the other account is refused (409 account_changed) until it is reloaded, and this tab reloads at once.

export function AccountSwitcher() {
  const { account, accounts = [], user } = usePortal();
  const portal = usePortalEnvironment();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const current = accounts.find((a) => a.current);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (accounts.length < 2) {
    return (
      <span
        className="hidden max-w-[14rem] truncate text-sm text-slate-600 sm:inline"
        title={user.email}
        data-testid="account-name"
      >
        {account.name}
      </span>
    );
  }

  async function switchTo(accountId: string) {
    setBusy(accountId);
    setError(null);
    try {
      await portal.fetch<TAccountSwitchedResponse>('/portal-api/session/account', { body: { accountId } });
      // A full navigation: nothing of the other account's pages may stay in this tab's memory or cache.
      window.location.assign(portal.href('/dashboard'));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The account could not be switched.');
      setBusy(null);
    }
  }

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        data-testid="account-switcher"
        className={cn(
          'flex max-w-[7rem] items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50 sm:max-w-[16rem]',
        )}
      >
        <span className="sr-only">Account: </span>
        <span className="truncate">{account.name}</span>
        {current ? <span className="hidden text-xs font-normal text-slate-500 sm:inline">· {current.role}</span> : null}
        <span aria-hidden="true" className="text-slate-500">
          ▾
        </span>
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute left-0 z-40 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          <p className="px-3 py-2 text-xs text-slate-600">
            Signed in as <span className="break-all font-medium text-slate-800">{user.email}</span>. Your accounts:
          </p>
          <ul aria-label="Your accounts">
            {accounts.map((choice) => (
              <li key={choice.id}>
                <button
                  type="button"
                  disabled={choice.current || busy !== null}
                  aria-current={choice.current ? 'true' : undefined}
                  onClick={() => void switchTo(choice.id)}
                  className={cn(
                    'flex w-full items-center justify-between gap-2 rounded px-3 py-2 text-left text-sm',
                    choice.current ? 'bg-brand-50 text-brand-700' : 'text-slate-800 hover:bg-slate-100 disabled:opacity-60',
                  )}
                >
                  <span className="truncate">
                    {choice.name}
                    {choice.current ? <span className="sr-only"> (current)</span> : null}
                  </span>
                  <span className="shrink-0 text-xs text-slate-600">{busy === choice.id ? 'Switching…' : choice.role}</span>
                </button>
              </li>
            ))}
          </ul>
          {error ? (
            <div className="p-2">
              <Alert tone="danger">{error}</Alert>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
