'use client';
import { PortalLink } from '@/components/layout/portal-context';
import { useNav } from '@/components/layout/portal-nav';
import { PageHeader } from '@/components/ui';

// A portal path that is no page (or a page that called notFound()): the header stays, and the way on is
// the places a shipper usually meant.
export default function PortalNotFound() {
  const nav = useNav();
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Page not found"
        description="There is no page at this address. It may have moved, or the link may be mistyped."
      />
      <nav aria-label="Where to go instead" className="rounded-lg border border-slate-200 bg-white p-4">
        <ul className="grid gap-2 sm:grid-cols-2">
          {nav.map((item) => (
            <li key={item.href}>
              <PortalLink href={item.href} className="font-medium text-brand-700 underline">
                {item.label}
              </PortalLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
