import { LoadingBlock } from '@/components/ui';

export default function DocsLoading() {
  return <LoadingBlock label="Loading the API reference…" rows={8} />;
}
