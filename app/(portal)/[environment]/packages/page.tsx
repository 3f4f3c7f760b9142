import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PackageListView } from '@/components/packages/package-list';
import { LoadingBlock, PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Packages' };

// GET /{environment}/packages: every package (container and daily), searched, filtered, paged, exported.
export default function PackagesPage() {
  return (
    <>
      <PageHeader
        title="Packages"
        description="Every package of your container and daily manifests in the selected environment, newest first. Search by the start of a tracking number, in any case."
      />
      <Suspense fallback={<LoadingBlock label="Loading…" />}>
        <PackageListView />
      </Suspense>
    </>
  );
}
