import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PortalLink } from '@/components/layout/portal-context';
import { Can } from '@/components/layout/role';
import { ManifestListView } from '@/components/manifests/manifest-list';
import { LoadingBlock, PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Manifests' };

// GET /{environment}/manifests: container manifests and daily package manifests in one list.
export default function ManifestsPage() {
  return (
    <>
      <PageHeader
        title="Manifests"
        description="Container manifests and the daily manifests your package requests join, in the selected environment."
        actions={
          <Can permission="shipments:write">
            <PortalLink
              href="/manifests/new"
              className="inline-flex items-center rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
            >
              New container manifest
            </PortalLink>
          </Can>
        }
      />
      <Suspense fallback={<LoadingBlock label="Loading manifests…" />}>
        <ManifestListView />
      </Suspense>
    </>
  );
}
