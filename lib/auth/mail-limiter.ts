import 'server-only';
import { addressKey } from '@/lib/net/address-key';
import { consume, emailKey, limiters, rateLimited, waitInWords } from './limiters';

// Per address and per e-mail, so nobody can fill a stranger's inbox; counted before any lookup, whether or not the e-mail
// has an account, since a 429 must not tell which do.
export async function admitMailRequest(options: { email?: string; address: string }): Promise<void> {
  const { mailAddress, mailEmail } = limiters();
  const address = addressKey(options.address);
  const email = options.email === undefined ? undefined : emailKey(options.email);
  const [byAddress, byEmail] = await Promise.all([
    consume(mailAddress, address),
    email === undefined ? undefined : consume(mailEmail, email),
  ]);
  if (!byAddress && !byEmail) return;
  // A refused request sends nothing: give back the point the other limiter took for it.
  await Promise.all([!byAddress && mailAddress.reward(address), email !== undefined && !byEmail && mailEmail.reward(email)]);
  throw rateLimited(
    (s) => `Too many e-mails asked for ${byEmail ? 'this e-mail address' : 'from your network'}. Try again in ${waitInWords(s)}.`,
    Math.max(byAddress?.msBeforeNext ?? 0, byEmail?.msBeforeNext ?? 0),
  );
}

// Per account too, so that one account's members cannot turn the service into a mailer.
export async function admitInvitation(options: { accountId: string; email: string; address: string }): Promise<void> {
  const { invitationsAccount } = limiters();
  const byAccount = await consume(invitationsAccount, options.accountId);
  if (byAccount) {
    throw rateLimited(
      (s) => `This account has sent too many invitations this hour. Try again in ${waitInWords(s)}.`,
      byAccount.msBeforeNext,
    );
  }
  try {
    await admitMailRequest({ email: options.email, address: options.address });
  } catch (error) {
    // Refused by the other limits: this invitation is not sent, so it does not count against the account.
    await invitationsAccount.reward(options.accountId);
    throw error;
  }
}
