import type { Metadata } from 'next';
import { ManifestDetailView } from '@/components/manifests/manifest-detail';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Manifest ${(await params).id}` };
}

// GET /{environment}/manifests/{id}: a container or daily manifest, its packages and the CSV export.
export default async function ManifestPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ManifestDetailView id={id} />;
}
