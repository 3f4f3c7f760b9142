// Pure functions of what each message says, with its links (which the log and the outbox show). Client-safe.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  /** More headers (List-Unsubscribe on the mail a shipper's recipients get). */
  headers?: Record<string, string>;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join('\n');
  return (
    '<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a;line-height:1.5">' +
    `<div style="max-width:560px;margin:0 auto;padding:24px"><p style="font-weight:600;color:#1d4ed8">Carrier</p>\n${body}</div></body></html>`
  );
}

const button = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a>`;

export function passwordResetMail(options: { to: string; link: string; minutes: number }): MailMessage {
  const { to, link, minutes } = options;
  return {
    to,
    subject: 'Reset your Carrier password',
    text: [
      'Someone (hopefully you) asked to reset the password of the Carrier account for this e-mail address.',
      '',
      `To choose a new password, open this link within ${minutes} minutes. It works once:`,
      link,
      '',
      'Setting a new password signs this account out everywhere else.',
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ].join('\n'),
    html: layout([
      'Someone (hopefully you) asked to reset the password of the Carrier account for this e-mail address.',
      `To choose a new password, open this link within ${minutes} minutes. It works once.`,
      button(link, 'Choose a new password'),
      `Or paste this address into your browser:<br><span style="word-break:break-all">${escapeHtml(link)}</span>`,
      'Setting a new password signs this account out everywhere else. If you did not ask for this, ignore this message: your password stays as it is.',
    ]),
    links: [link],
  };
}

// So that a change nobody asked for is noticed.
export function passwordChangedMail(options: { to: string; at: Date; how: 'reset' | 'change'; resetLink: string }): MailMessage {
  const { to, at, how, resetLink } = options;
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const what = how === 'reset' ? 'was reset through a link sent to this address' : 'was changed from the account page';
  return {
    to,
    subject: 'Your Carrier password was changed',
    text: [
      `The password of the Carrier account for this e-mail address ${what} at ${when}.`,
      'Every other session of the account was signed out.',
      '',
      'If this was not you, reset your password now and tell your administrator:',
      resetLink,
    ].join('\n'),
    html: layout([
      `The password of the Carrier account for this e-mail address ${what} at ${escapeHtml(when)}.`,
      'Every other session of the account was signed out.',
      `If this was not you, reset your password now and tell your administrator: ${button(resetLink, 'Reset password')}`,
    ]),
    links: [resetLink],
  };
}

// Nothing the person typed is in it: the address is not yet proved theirs, and a stranger's words must not reach
// someone else's inbox from us.
export function signUpLinkMail(options: { to: string; link: string; hours: number }): MailMessage {
  const { to, link, hours } = options;
  return {
    to,
    subject: 'Confirm your e-mail to create your Carrier account',
    text: [
      'Someone (hopefully you) signed up for Carrier with this e-mail address.',
      '',
      `To confirm the address and create the account, open this link within ${hours} hours. It works once:`,
      link,
      '',
      'If you did not sign up, ignore this message: no account is created unless the link is used.',
    ].join('\n'),
    html: layout([
      'Someone (hopefully you) signed up for Carrier with this e-mail address.',
      `To confirm the address and create the account, open this link within ${hours} hours. It works once.`,
      button(link, 'Confirm and create the account'),
      `Or paste this address into your browser:<br><span style="word-break:break-all">${escapeHtml(link)}</span>`,
      'If you did not sign up, ignore this message: no account is created unless the link is used.',
    ]),
    links: [link],
  };
}

export function invitationMail(options: {
  to: string;
  link: string;
  accountName: string;
  role: string;
  invitedBy: string | null;
  hours: number;
}): MailMessage {
  const { to, link, accountName, role, invitedBy, hours } = options;
  const who = invitedBy ? `${invitedBy} invited you` : 'You are invited';
  const lead = `${who} to join ${accountName} on Carrier as ${role}.`;
  return {
    to,
    subject: `You are invited to join ${accountName} on Carrier`,
    text: [
      lead,
      '',
      `To accept, open this link within ${hours} hours. It works once:`,
      link,
      '',
      'If you already use Carrier with this e-mail address, you sign in with your password; otherwise you choose one.',
      'If you did not expect this, ignore this message: nothing happens unless the link is opened and accepted.',
    ].join('\n'),
    html: layout([
      escapeHtml(lead),
      `To accept, open this link within ${hours} hours. It works once.`,
      button(link, 'Accept the invitation'),
      `Or paste this address into your browser:<br><span style="word-break:break-all">${escapeHtml(link)}</span>`,
      'If you already use Carrier with this e-mail address, you sign in with your password; otherwise you choose one. If you did not expect this, ignore this message.',
    ]),
    links: [link],
  };
}

// The sign-up's answer must not tell who has an account, so this mail is where the person learns what happened.
export function signUpKnownEmailMail(options: { to: string; at: Date; signInLink: string; resetLink: string }): MailMessage {
  const { to, at, signInLink, resetLink } = options;
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return {
    to,
    subject: 'Someone tried to sign up with your Carrier address',
    text: [
      `Someone tried to create a new Carrier account with this e-mail address at ${when}.`,
      'You already have an account, so nothing was created and nothing was changed.',
      '',
      'If it was you, sign in instead:',
      signInLink,
      '',
      'Forgot your password? Reset it here:',
      resetLink,
      '',
      'If it was not you, ignore this message: your account and its password stay as they are.',
    ].join('\n'),
    html: layout([
      `Someone tried to create a new Carrier account with this e-mail address at ${escapeHtml(when)}.`,
      'You already have an account, so nothing was created and nothing was changed.',
      `If it was you, sign in instead: ${button(signInLink, 'Sign in')}`,
      `Forgot your password? <a href="${escapeHtml(resetLink)}">Reset it here</a>.`,
      'If it was not you, ignore this message: your account and its password stay as they are.',
    ]),
    links: [signInLink, resetLink],
  };
}

const TRACKING_HEADLINES: Record<'out_for_delivery' | 'delivered' | 'exception', (from: string) => string> = {
  out_for_delivery: (from) => `Your package${from} is out for delivery`,
  delivered: (from) => `Your package${from} was delivered`,
  exception: (from) => `Your package${from} is delayed`,
};

/**
 * To a shipper's recipient (its ToEmail), when the shipper opted in: the status, the public tracking page and an
 * unsubscribe link. The shipper's company is the one printed on the label; nothing else the shipper sent is in it.
 */
export function trackingUpdateMail(options: {
  to: string;
  status: 'out_for_delivery' | 'delivered' | 'exception';
  shipper: string | null;
  trackingNumber: string | null;
  trackLink: string;
  unsubscribeLink: string;
  oneClickUnsubscribeLink: string;
}): MailMessage {
  const { to, status, shipper, trackingNumber, trackLink, unsubscribeLink } = options;
  const headline = TRACKING_HEADLINES[status](shipper ? ` from ${shipper}` : '');
  const detail =
    status === 'exception'
      ? 'Something is holding it up, and the carrier is working on it. The tracking page shows the latest.'
      : status === 'delivered'
        ? 'The tracking page shows when and where.'
        : 'It should arrive today. The tracking page shows the latest.';
  const number = trackingNumber ? `Tracking number: ${trackingNumber}` : null;
  const why = shipper
    ? `You get this because ${shipper} ships this package with Carrier and gave us this address for updates.`
    : 'You get this because the shipper of this package gave us this address for updates.';
  return {
    to,
    subject: headline,
    text: [
      `${headline}.`,
      detail,
      ...(number ? [number] : []),
      '',
      'Track it:',
      trackLink,
      '',
      why,
      'To stop these e-mails from this shipper:',
      unsubscribeLink,
    ].join('\n'),
    html: layout([
      `<strong>${escapeHtml(headline)}.</strong> ${escapeHtml(detail)}`,
      ...(number ? [escapeHtml(number)] : []),
      button(trackLink, 'Track your package'),
      `<span style="font-size:13px;color:#475569">${escapeHtml(why)} <a href="${escapeHtml(unsubscribeLink)}" style="color:#1d4ed8">Unsubscribe</a>.</span>`,
    ]),
    links: [trackLink, unsubscribeLink],
    headers: {
      // RFC 8058: a mail client's one-click unsubscribe POSTs to this address (app/api/unsubscribe/route.ts).
      'List-Unsubscribe': `<${options.oneClickUnsubscribeLink}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
