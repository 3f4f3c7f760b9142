'use client';
import Link from 'next/link';
import { EmptyState } from '@/components/ui';
import { portalPath } from '@/lib/portal/paths';
import { PortalLink, usePortalEnvironment } from './portal-context';

/**
 * A detail page's 404: nothing of that id in the page's environment, a way back to the list, and, for ids
 * that could be the other environment's (`otherPath`, a portal path), a link to look for it there.
 */
export function NotInEnvironment({
  title,
  what,
  listPath,
  listLabel,
  otherPath,
}: {
  title: string;
  /** "package 1Z…": what there is none of, with its id. */
  what: string;
  listPath: string;
  listLabel: string;
  otherPath?: string;
}) {
  const portal = usePortalEnvironment();
  const other = portal.environment === 'test' ? 'live' : 'test';
  return (
    <EmptyState
      title={title}
      action={
        <PortalLink href={listPath} className="font-medium text-brand-700 underline">
          {listLabel}
        </PortalLink>
      }
    >
      There is no {what} in {portal.environment}; test and live are kept apart.
      {otherPath ? (
        <>
          {' '}
          <Link href={portalPath(other, otherPath)} className="font-medium text-brand-700 underline">
            Look for it in {other}
          </Link>
        </>
      ) : null}
    </EmptyState>
  );
}
