import type { Metadata } from 'next';
import { MembersPanel } from '@/components/members/members-panel';
import { InvitationsPanel } from '@/components/teams/invitations-panel';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Members' };

// GET /{environment}/members: the account's members and their roles (the same in test and live), who can do what, and
// the invitations still open (shown to those who can invite).
export default function MembersPage() {
  return (
    <>
      <PageHeader
        title="Members"
        description="Everyone who can sign in to this account, with their role. Roles apply to test and live alike."
      />
      <div className="space-y-6">
        <MembersPanel />
        <InvitationsPanel />
      </div>
    </>
  );
}
