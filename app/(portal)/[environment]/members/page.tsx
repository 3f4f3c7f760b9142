import type { Metadata } from 'next';
import { InvitationsPanel } from '@/components/teams/invitations-panel';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Members' };

// GET /{environment}/members. A placeholder on the invites branch: the members branch's page, with the member list,
// takes the invitations panel when the two are merged.
export default function MembersPage() {
  return (
    <>
      <PageHeader title="Members" description="The people who work in this account, and the invitations still open." />
      <InvitationsPanel />
    </>
  );
}
