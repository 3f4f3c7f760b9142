import type { Metadata } from 'next';
import { RoleGate } from '@/components/layout/role-gate';
import { Suspense } from 'react';
import { RequestListView } from '@/components/logs/request-list';
import { LoadingBlock, PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Logs' };

// GET /{environment}/logs: the account's request log in the selected environment, filtered and paged.
export default function LogsPage() {
  return (
    <RoleGate permission="logs:read" title="Logs" what="read the request log">
      <PageHeader
        title="Logs"
        description="Every API request of this environment, with what it sent and what it was answered (secrets redacted), and the portal's changes and errors. Kept 30 days."
      />
      <Suspense fallback={<LoadingBlock label="Loading…" />}>
        <RequestListView />
      </Suspense>
    </RoleGate>
  );
}
