'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { PortalError } from '@/lib/portal/fetcher';
import { environmentOfPath, portalPath } from '@/lib/portal/paths';

/**
 * Under an error the portal shows: its request id, linked to the request's line on the Logs page (what was sent and
 * answered). Only when the answer says its request was written (x-request-logged): not for a failed sign-in, a
 * refusal before the session and environment were known, or a network failure.
 */
export function RequestLink({ error, className }: { error: unknown; className?: string }) {
  const environment = environmentOfPath(usePathname());
  if (!(error instanceof PortalError) || !error.requestId || !error.logged || !environment) return null;
  return (
    <span className={className ?? 'mt-1 block text-xs'}>
      Request <span className="font-mono">{error.requestId}</span> ·{' '}
      <Link
        href={portalPath(environment, `/logs/${encodeURIComponent(error.requestId)}`)}
        className="font-medium underline underline-offset-2"
      >
        see it in Logs
      </Link>
    </span>
  );
}
