import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  invitationMail,
  passwordChangedMail,
  passwordResetMail,
  signUpKnownEmailMail,
  signUpLinkMail,
} from './messages';

describe('mail messages', () => {
  const link = 'https://carrier.example.com/reset-password?token=abc_DEF-123';

  it('a reset mail carries its link in both bodies, and says how long it works', () => {
    const mail = passwordResetMail({ to: 'a@example.com', link, minutes: 30 });
    expect(mail).toMatchObject({ to: 'a@example.com', subject: 'Reset your Carrier password', links: [link] });
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('within 30 minutes');
    expect(mail.html).toContain(`href="${link}"`);
  });

  it('escapes what it puts in HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const mail = passwordResetMail({ to: 'a@example.com', link: 'https://x.example/r?token=a&b="<script>', minutes: 30 });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('token=a&amp;b=&quot;&lt;script&gt;');
  });

  it('a change notice says how and when, in UTC, and links to a reset', () => {
    const mail = passwordChangedMail({
      to: 'a@example.com',
      at: new Date('2026-11-24T08:30:59Z'),
      how: 'change',
      resetLink: link,
    });
    expect(mail.text).toContain('changed from the account page at 2026-11-24 08:30 UTC');
    expect(passwordChangedMail({ to: 'a@example.com', at: new Date(), how: 'reset', resetLink: link }).text).toContain(
      'reset through a link',
    );
    expect(mail.links).toEqual([link]);
  });

  it('a sign-up mail carries its link in both bodies and says how long it works, and nothing else of the sign-up', () => {
    const verify = 'https://carrier.example.com/verify-email?token=abc_DEF-123';
    const mail = signUpLinkMail({ to: 'a@example.com', link: verify, hours: 24 });
    expect(mail).toMatchObject({
      to: 'a@example.com',
      subject: 'Confirm your e-mail to create your Carrier account',
      links: [verify],
    });
    expect(mail.text).toContain(verify);
    expect(mail.text).toContain('within 24 hours');
    expect(mail.html).toContain(`href="${verify}"`);
  });

  it('a sign-up with a known e-mail is told in the mail, with links to sign in and to reset, in UTC', () => {
    const mail = signUpKnownEmailMail({
      to: 'a@example.com',
      at: new Date('2026-11-24T08:30:59Z'),
      signInLink: 'https://carrier.example.com/sign-in',
      resetLink: 'https://carrier.example.com/forgot-password',
    });
    expect(mail.subject).toBe('Someone tried to sign up with your Carrier address');
    expect(mail.text).toContain('at 2026-11-24 08:30 UTC');
    expect(mail.text).toContain('You already have an account, so nothing was created');
    expect(mail.links).toEqual(['https://carrier.example.com/sign-in', 'https://carrier.example.com/forgot-password']);
    expect(mail.html).toContain('href="https://carrier.example.com/forgot-password"');
  });

  it('an invitation names who invited, the account and the role, carries its link, and escapes the account name', () => {
    const invite = 'https://carrier.example.com/invitations/accept?token=abc_DEF-123';
    const mail = invitationMail({
      to: 'b@example.com',
      link: invite,
      accountName: 'Acme <b>&</b>',
      role: 'operator',
      invitedBy: 'a@example.com',
      hours: 72,
    });
    expect(mail).toMatchObject({
      to: 'b@example.com',
      subject: 'You are invited to join Acme <b>&</b> on Carrier',
      links: [invite],
    });
    expect(mail.text).toContain('a@example.com invited you to join Acme <b>&</b> on Carrier as operator.');
    expect(mail.text).toContain('within 72 hours');
    expect(mail.html).toContain(`href="${invite}"`);
    expect(mail.html).not.toContain('<b>&</b>');
    expect(mail.html).toContain('Acme &lt;b&gt;&amp;&lt;/b&gt;');
  });
});
