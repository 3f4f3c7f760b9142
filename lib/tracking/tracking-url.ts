import type { Environment } from '@/lib/generated/prisma/enums';
import { appLink } from '@/lib/mail/settings';

/**
 * A package's public tracking page, the link recipient e-mail carries: by carrier barcode (ours, unique across the
 * carrier, unguessable), under the app's public origin (APP_URL, never the request's Host). A test package's is the
 * test page, which says it is not a real shipment (docs/decisions/public-tracking.md "Test packages").
 */
export function trackingUrl(environment: Environment, carrierBarcode: string | null): string | null {
  if (!carrierBarcode) return null;
  return `${trackBase()}${environment === 'test' ? 'test/' : ''}${encodeURIComponent(carrierBarcode)}`;
}

let base: { from: string; url: string } | undefined;

/** The page's prefix, worked out once per APP_URL (a list of 100 packages builds 100 links). */
function trackBase(): string {
  const from = `${process.env.APP_URL ?? ''}|${process.env.PORT ?? ''}`;
  if (base?.from !== from) base = { from, url: appLink('/track/') };
  return base.url;
}
