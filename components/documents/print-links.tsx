'use client';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import { buttonClass } from '@/components/ui';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';

/**
 * Opens one of the portal's document routes (app/portal-api/…/document|tags|labels|label, the API's own
 * operations) as a PDF in a new tab, where the browser's viewer prints it.
 */
export function PrintLink({ path, children }: { path: string; children: string }) {
  const portal = usePortalEnvironment();
  // A new tab cannot send a header: the environment goes in the query (GET only), as the CSV export's does.
  const query = new URLSearchParams({ [ENVIRONMENT_QUERY]: portal.environment, format: 'pdf' });
  return (
    <a href={`${path}?${query}`} target="_blank" rel="noopener" className={buttonClass({ variant: 'secondary' })}>
      {children}
      <span className="sr-only"> (PDF, opens in a new tab)</span>
    </a>
  );
}

/** A manifest's paper: the handover manifest, the container's tag (containers only) and every package label. */
export function ManifestPrintLinks({ id, container }: { id: string; container: boolean }) {
  const base = `/portal-api/manifests/${encodeURIComponent(id)}`;
  return (
    <>
      <PrintLink path={`${base}/document`}>Print manifest</PrintLink>
      {container ? <PrintLink path={`${base}/tags`}>Print tags</PrintLink> : null}
      <PrintLink path={`${base}/labels`}>Print labels</PrintLink>
    </>
  );
}
