'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { cn } from '@/components/ui';
import { environmentOfPath } from '@/lib/portal/paths';
import { can, type RouteAccess } from '@/lib/teams/permissions';
import { usePortal, usePortalEnvironment } from './portal-context';

// Portal paths without their environment; rendered in the page's environment. Each names what a role needs to be
// offered it (lib/teams/permissions.ts; 'self': any member): a page a role cannot use is not in its navigation. The
// group is the menu it sits in on the bar; an entry without one is a link of its own.
export const NAV = [
  { href: '/dashboard', label: 'Dashboard', permission: 'data:read' },
  { href: '/rates', label: 'Rates', permission: 'rates:quote', group: 'Shipping' },
  { href: '/manifests', label: 'Manifests', permission: 'data:read', group: 'Shipping' },
  { href: '/manifests/new', label: 'New manifest', permission: 'shipments:write', group: 'Shipping' },
  { href: '/packages', label: 'Packages', permission: 'data:read', group: 'Shipping' },
  { href: '/pickups', label: 'Pickups', permission: 'data:read', group: 'Shipping' },
  { href: '/rate-cards', label: 'Rate cards', permission: 'data:read', group: 'Shipping' },
  { href: '/billing', label: 'Billing', permission: 'billing:read' },
  { href: '/tokens', label: 'API tokens', permission: 'tokens:manage', group: 'Developers' },
  { href: '/webhooks', label: 'Webhooks', permission: 'webhooks:manage', group: 'Developers' },
  { href: '/logs', label: 'Logs', permission: 'logs:read', group: 'Developers' },
  { href: '/docs', label: 'API reference', permission: 'self', group: 'Developers' },
  { href: '/members', label: 'Members', permission: 'data:read', group: 'Team' },
  { href: '/audit', label: 'Audit', permission: 'audit:read', group: 'Team' },
  { href: '/settings', label: 'Settings', permission: 'data:read', group: 'Team' },
  { href: '/account', label: 'Account', permission: 'self', group: 'Team' },
] as const satisfies readonly { href: string; label: string; permission: RouteAccess; group?: string }[];

type NavItem = (typeof NAV)[number];
type Entry = { kind: 'link'; item: NavItem } | { kind: 'group'; label: string; items: NavItem[] };

/** The navigation the signed-in role is offered. */
export function useNav(): NavItem[] {
  const { role } = usePortal();
  return NAV.filter((item) => item.permission === 'self' || can(role, item.permission));
}

/** The bar's entries in order: links, and each group (at its first item's place) with the items the role is offered. */
function entriesOf(nav: NavItem[]): Entry[] {
  const entries: Entry[] = [];
  for (const item of nav) {
    if (!('group' in item)) {
      entries.push({ kind: 'link', item });
      continue;
    }
    const group = entries.find((e): e is Extract<Entry, { kind: 'group' }> => e.kind === 'group' && e.label === item.group);
    if (group) group.items.push(item);
    else entries.push({ kind: 'group', label: item.group, items: [item] });
  }
  return entries;
}

function isActive(fullPathname: string, href: string): boolean {
  const environment = environmentOfPath(fullPathname);
  const pathname = environment ? fullPathname.slice(environment.length + 1) : fullPathname;
  if (pathname === href) return true;
  // /manifests/new has its own entry; /manifests/<id> belongs to Manifests.
  if (href === '/manifests') return pathname.startsWith('/manifests/') && pathname !== '/manifests/new';
  return href !== '/manifests/new' && pathname.startsWith(`${href}/`);
}

const linkClass = (active: boolean) =>
  cn(
    'block rounded-md px-3 py-2 text-sm font-medium',
    active
      ? 'bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100'
      : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white',
  );

function NavLink({ item, pathname }: { item: NavItem; pathname: string }) {
  const portal = usePortalEnvironment();
  const active = isActive(pathname, item.href);
  return (
    <Link href={portal.href(item.href)} aria-current={active ? 'page' : undefined} className={linkClass(active)}>
      {item.label}
    </Link>
  );
}

/**
 * One group on the wide bar: a button that shows and hides its links (the disclosure navigation pattern: links stay
 * links). ArrowDown on the button opens it at the first link; arrows, Home and End move through the links; Escape
 * closes it and puts focus back on the button; a click or focus elsewhere closes it.
 */
function NavGroup({
  label,
  items,
  pathname,
  open,
  onOpenChange,
}: {
  label: string;
  items: NavItem[];
  pathname: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const focusFirst = useRef(false);
  const current = items.some((item) => isActive(pathname, item.href));

  useEffect(() => {
    if (!open) return;
    if (focusFirst.current) {
      focusFirst.current = false;
      root.current?.querySelector<HTMLAnchorElement>('a')?.focus();
    }
    const outside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) onOpenChange(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open, onOpenChange]);

  function onKeyDown(event: ReactKeyboardEvent) {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      onOpenChange(false);
      button.current?.focus();
      return;
    }
    const links = Array.from(root.current?.querySelectorAll<HTMLAnchorElement>('a') ?? []);
    if (event.target === button.current) {
      if (event.key === 'ArrowDown') {
        event.preventDefault();
        if (open) links[0]?.focus();
        else {
          focusFirst.current = true;
          onOpenChange(true);
        }
      }
      return;
    }
    const at = links.indexOf(event.target as HTMLAnchorElement);
    if (at < 0) return;
    const to =
      event.key === 'ArrowDown'
        ? (at + 1) % links.length
        : event.key === 'ArrowUp'
          ? (at - 1 + links.length) % links.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? links.length - 1
              : -1;
    if (to >= 0) {
      event.preventDefault();
      links[to]?.focus();
    }
  }

  return (
    <div
      ref={root}
      className="relative"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget)) onOpenChange(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => onOpenChange(!open)}
        className={cn(
          'flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium',
          current
            ? 'bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100'
            : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white',
        )}
      >
        {label}
        <span aria-hidden="true" className={cn('text-xs transition-transform', open && 'rotate-180')}>
          ▾
        </span>
      </button>
      <ul
        id={id}
        hidden={!open}
        className="absolute left-0 z-40 mt-1 w-52 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        {items.map((item) => (
          <li key={item.href}>
            <NavLink item={item} pathname={pathname} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The main navigation, grouped: on a wide screen one line of links and menus; on a phone (the header's Menu button
 * shows it) every link under its group's name, one tap away.
 */
export function PortalNav({
  phoneOpen,
  openGroup,
  onOpenGroup,
  footer,
}: {
  phoneOpen: boolean;
  openGroup: string | null;
  onOpenGroup: (group: string | null) => void;
  footer: React.ReactNode;
}) {
  const pathname = usePathname();
  const entries = entriesOf(useNav());
  return (
    <nav
      id="portal-nav"
      aria-label="Main"
      className={cn(
        'order-last w-full border-t border-slate-100 lg:order-none lg:block lg:w-auto lg:border-0 dark:border-slate-800',
        phoneOpen ? 'block' : 'hidden',
      )}
    >
      <ul className="hidden items-center gap-1 lg:flex">
        {entries.map((entry) => (
          <li key={entry.kind === 'link' ? entry.item.href : entry.label}>
            {entry.kind === 'link' ? (
              <NavLink item={entry.item} pathname={pathname} />
            ) : (
              <NavGroup
                label={entry.label}
                items={entry.items}
                pathname={pathname}
                open={openGroup === entry.label}
                onOpenChange={(open) => onOpenGroup(open ? entry.label : null)}
              />
            )}
          </li>
        ))}
      </ul>
      <div className="grid gap-3 py-3 sm:grid-cols-2 lg:hidden">
        {entries.map((entry) =>
          entry.kind === 'link' ? (
            <NavLink key={entry.item.href} item={entry.item} pathname={pathname} />
          ) : (
            <div key={entry.label}>
              <p
                id={`nav-${entry.label}`}
                className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300"
              >
                {entry.label}
              </p>
              <ul aria-labelledby={`nav-${entry.label}`}>
                {entry.items.map((item) => (
                  <li key={item.href}>
                    <NavLink item={item} pathname={pathname} />
                  </li>
                ))}
              </ul>
            </div>
          ),
        )}
        {footer}
      </div>
    </nav>
  );
}
