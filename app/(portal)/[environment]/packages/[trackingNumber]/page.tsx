import type { Metadata } from 'next';
import { PackageDetailView } from '@/components/packages/package-detail';

export async function generateMetadata({ params }: { params: Promise<{ trackingNumber: string }> }): Promise<Metadata> {
  return { title: `Package ${(await params).trackingNumber}` };
}

// GET /{environment}/packages/{TrackingNumber}: a package, its timeline, cancel and (test) simulate.
export default async function PackagePage({ params }: { params: Promise<{ trackingNumber: string }> }) {
  const { trackingNumber } = await params;
  return <PackageDetailView trackingNumber={trackingNumber} />;
}
