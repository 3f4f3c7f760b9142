import type { Metadata } from 'next';
import { RoleGate } from '@/components/layout/role-gate';
import { ManifestBuilder } from '@/components/manifests/manifest-builder';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'New container manifest' };

// GET /{environment}/manifests/new: the container-manifest builder (header fields and a package grid).
export default function NewManifestPage() {
  return (
    <RoleGate permission="shipments:write" title="New container manifest" what="create manifests">
      <PageHeader
        title="New container manifest"
        description="Describe the container and the packages inside it. Type or paste into the grid, or import a CSV or Excel file; everything is checked with the same rules as the API."
      />
      <ManifestBuilder />
    </RoleGate>
  );
}
