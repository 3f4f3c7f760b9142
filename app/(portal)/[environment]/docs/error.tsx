'use client';
import { ErrorState } from '@/components/ui';

export default function DocsError({ error, reset }: { error: Error; reset: () => void }) {
  return <ErrorState title="Could not render the API reference" error={error} onRetry={reset} />;
}
