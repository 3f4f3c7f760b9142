import { notFound } from 'next/navigation';

// Any /test/… or /live/… path that is no page: the portal's own not-found (../not-found.tsx), inside the
// portal's header and navigation, rather than the site-wide one.
export default function MissingPortalPage(): never {
  notFound();
}
