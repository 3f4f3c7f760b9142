import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AuditListView } from '@/components/audit/audit-list';
import { EmptyState, LoadingBlock, PageHeader } from '@/components/ui';
import { getSession } from '@/lib/auth/session';
import { can } from '@/lib/teams/permissions';

export const metadata: Metadata = { title: 'Audit log' };

// GET /{environment}/audit: the account's audit log (owners and admins: audit:read), filtered, paged, exported.
export default async function AuditPage() {
  const session = await getSession();
  if (!session || !can(session.role, 'audit:read')) {
    return (
      <>
        <PageHeader title="Audit log" />
        <EmptyState title="Not available to your role">
          Only the account&apos;s owners and admins can read its audit log.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what in this account, when and from which address: sign-ins, passwords, tokens, webhooks, cancellations, closes and settings, in both environments. Kept a year; nothing here can be changed or deleted."
      />
      <Suspense fallback={<LoadingBlock label="Loading…" />}>
        <AuditListView />
      </Suspense>
    </>
  );
}
