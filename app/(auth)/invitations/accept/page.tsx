import type { Metadata } from 'next';
import { AcceptAsOtherUser, AcceptSignedIn, AcceptWithPassword, InvitationRefused } from '@/components/teams/accept-invitation';
import { getSession } from '@/lib/auth/session';
import { checkInvitationLink, INVITATION_LINK_MESSAGES, memberRoleOf } from '@/lib/teams/invitations';

// The token is in the address: no Referer may carry it anywhere.
export const metadata: Metadata = { title: 'Accept an invitation', referrer: 'no-referrer' };

const REFUSED_TITLES = {
  expired: 'This invitation has expired',
  used: 'This invitation was already accepted',
  revoked: 'This invitation was withdrawn',
  invalid: 'This invitation link is not valid',
} as const;

// GET /invitations/accept?token=…: the link in an invitation mail. Opening it uses nothing (mail scanners open links
// too); a dead link says why, a live one what it is for and the one step that fits who opened it.
export default async function AcceptInvitationPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await searchParams;
  const link = await checkInvitationLink(token);
  if (link.state !== 'valid' || !link.invitation) {
    const state = link.state === 'valid' ? 'invalid' : link.state;
    const about = link.invitation && state !== 'invalid' ? ` (to ${link.invitation.accountName})` : '';
    return <InvitationRefused title={REFUSED_TITLES[state] + about} message={INVITATION_LINK_MESSAGES[state]} />;
  }
  const { invitation } = link;
  const summary = {
    email: invitation.email,
    role: invitation.role,
    accountName: invitation.accountName,
    invitedBy: invitation.invitedBy,
  };
  const session = await getSession();
  if (session) {
    // The session's CSRF token, which the accept request and the sign-out send (lib/portal/fetcher.ts reads it here).
    const csrf = <meta name="csrf-token" content={session.csrfToken} />;
    if (session.user.email.toLowerCase() !== invitation.email.toLowerCase()) {
      return (
        <>
          {csrf}
          <AcceptAsOtherUser invitation={summary} signedInAs={session.user.email} />
        </>
      );
    }
    const memberAs = await memberRoleOf({ userId: session.user.id, accountId: invitation.accountId });
    return (
      <>
        {csrf}
        <AcceptSignedIn token={token as string} invitation={summary} memberAs={memberAs} />
      </>
    );
  }
  return link.existingUser ? (
    <AcceptWithPassword token={token as string} invitation={summary} existingUser />
  ) : (
    <AcceptWithPassword token={token as string} invitation={summary} existingUser={false} />
  );
}
