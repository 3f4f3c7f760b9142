import type { Metadata } from 'next';
import { SignUpLinkRefused, VerifySignUpForm } from '@/components/account/sign-up-verification';
import { checkSignUpLink, SIGN_UP_LINK_MESSAGES } from '@/lib/accounts/sign-up';

// The token is in the address: no Referer may carry it anywhere.
export const metadata: Metadata = { title: 'Create your account', referrer: 'no-referrer' };

// GET /verify-email?token=…: the link in a sign-up mail. Opening it creates nothing (mail scanners open links too):
// the page shows what the link will create and a button that does it; a used, replaced, expired or malformed link
// says so, and how to go on.
export default async function VerifyEmailPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await searchParams;
  const link = await checkSignUpLink(token);
  if (link.state !== 'valid') return <SignUpLinkRefused message={SIGN_UP_LINK_MESSAGES[link.state]} />;
  return (
    <VerifySignUpForm token={token as string} email={link.email!} company={link.company!} companyTaken={link.companyTaken!} />
  );
}
