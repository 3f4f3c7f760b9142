import type { Metadata } from 'next';
import { ChangePasswordForm, SessionsPanel } from '@/components/account/account-security';
import { TimeZoneSetting } from '@/components/account/time-zone-setting';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Your account' };

// GET /{environment}/account: the signed-in user's password and sessions (the same in test and live).
export default function AccountPage() {
  return (
    <>
      <PageHeader
        title="Your account"
        description="Your password, where you are signed in and how times are shown. These are yours, not the environment's."
      />
      <div className="space-y-6">
        <ChangePasswordForm />
        <SessionsPanel />
        <TimeZoneSetting />
      </div>
    </>
  );
}
