'use client';
import { PortalLink } from '@/components/layout/portal-context';
import { ErrorState } from '@/components/ui';

// A page that failed to render: the header and navigation stay (this boundary is inside the portal's
// layout), with a retry and a way to the dashboard. The digest is what the server logged.
export default function PortalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-2xl space-y-4">
      <ErrorState
        title="This page could not be shown"
        error={
          error.digest ? `Something went wrong on our side (reference ${error.digest}).` : 'Something went wrong on our side.'
        }
        onRetry={reset}
      />
      <PortalLink href="/dashboard" className="text-sm font-medium text-brand-700 underline">
        Go to the dashboard
      </PortalLink>
    </div>
  );
}
