'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { PortalError } from '@/lib/portal/fetcher';
import { environmentOfPath, portalPath } from '@/lib/portal/paths';

/**
 * Under an error the portal shows: its request id, linked to the request's line on the Logs page (what was sent and
 * answered). Only for an answer of the portal-api in an environment: the log has no line for a failed sign-in or a
 * network failure, so those show nothing here.
 */
export function RequestLink({ error, className }: { error: unknown; className?: string }) {
  const environment = environmentOfPath(usePathname());
  if (!(error instanceof PortalError) || !error.requestId || !environment || error.status === 401) return null;
  return (
    <span className={className ?? 'mt-1 block text-xs'}>
      Request <span className="font-mono">{error.requestId}</span> ·{' '}
      <Link href={portalPath(environment, `/logs/${encodeURIComponent(error.requestId)}`)} className="font-medium underline underline-offset-2">
        see it in Logs
      </Link>
    </span>
  );
}
