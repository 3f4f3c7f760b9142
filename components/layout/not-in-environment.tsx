'use client';
import Link from 'next/link';
import { EmptyState, ErrorState, PageHeader } from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';
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

/**
 * A detail page whose record could not be read: a 404 is NotInEnvironment, anything else an ErrorState with Try
 * again. The wording comes from `thing` ("manifest": "Manifest not found", "Could not load the manifest", "There is
 * no manifest MAN-… in test"); `list` is the page it belongs to. `withHeading` puts the id above it as the page's
 * title; `findable` offers a link to the same page in the other environment (ids the other one could hold).
 */
export function DetailLoadError({
  query,
  thing,
  id,
  list,
  withHeading = false,
  findable = false,
}: {
  query: { error: unknown; refetch: () => unknown };
  thing: string;
  id: string;
  list: { path: string; label: string };
  withHeading?: boolean;
  findable?: boolean;
}) {
  const body =
    query.error instanceof PortalError && query.error.status === 404 ? (
      <NotInEnvironment
        title={`${thing.charAt(0).toUpperCase()}${thing.slice(1)} not found`}
        what={`${thing} ${id}`}
        listPath={list.path}
        listLabel={list.label}
        otherPath={findable ? `${list.path}/${encodeURIComponent(id)}` : undefined}
      />
    ) : (
      <ErrorState title={`Could not load the ${thing}`} error={query.error} onRetry={() => void query.refetch()} />
    );
  return withHeading ? (
    <>
      <PageHeader title={id} />
      {body}
    </>
  ) : (
    body
  );
}
