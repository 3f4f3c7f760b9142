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
 * A detail page whose record could not be read: a 404 is NotInEnvironment (under a header naming the id, when
 * `heading` is given), anything else an ErrorState with Try again.
 */
export function DetailLoadError({
  error,
  heading,
  failedTitle,
  onRetry,
  ...missing
}: Parameters<typeof NotInEnvironment>[0] & { error: unknown; heading?: string; failedTitle: string; onRetry: () => void }) {
  const body =
    error instanceof PortalError && error.status === 404 ? (
      <NotInEnvironment {...missing} />
    ) : (
      <ErrorState title={failedTitle} error={error} onRetry={onRetry} />
    );
  return heading === undefined ? (
    body
  ) : (
    <>
      <PageHeader title={heading} />
      {body}
    </>
  );
}
