import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PackageFinder } from '@/components/packages/package-finder';
import { LoadingBlock, PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Packages' };

// GET /{environment}/packages: find a package by tracking number.
export default function PackagesPage() {
  return (
    <>
      <PageHeader
        title="Find a package"
        description="Look up a package by tracking number in container and daily package manifests."
      />
      <Suspense fallback={<LoadingBlock label="Loading…" />}>
        <PackageFinder />
      </Suspense>
    </>
  );
}
