import type { Metadata } from 'next';
import { ResetLinkRefused, ResetPasswordForm } from '@/components/account/password-reset-forms';
import { checkPasswordResetLink, RESET_LINK_MESSAGES } from '@/lib/accounts/password-reset';

// The token is in the address: no Referer may carry it anywhere (the page loads nothing from elsewhere anyway).
export const metadata: Metadata = { title: 'Choose a new password', referrer: 'no-referrer' };

// GET /reset-password?token=…: the link in a reset mail. Opening it uses nothing (mail scanners open links too);
// a used, expired or malformed link says so, and how to get a new one.
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await searchParams;
  const state = await checkPasswordResetLink(token);
  if (state !== 'valid') return <ResetLinkRefused message={RESET_LINK_MESSAGES[state]} />;
  return <ResetPasswordForm token={token as string} />;
}
