import type { Metadata } from 'next';
import { MembersPanel } from '@/components/members/members-panel';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Members' };

// GET /{environment}/members: the account's members and their roles (the same in test and live), and who can do what.
export default function MembersPage() {
  return (
    <>
      <PageHeader
        title="Members"
        description="Everyone who can sign in to this account, with their role. Roles apply to test and live alike."
      />
      <MembersPanel />
    </>
  );
}
