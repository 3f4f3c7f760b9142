import type { Metadata } from 'next';
import { CloseOutSettingsForm } from '@/components/settings/close-out-settings';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Settings' };

// GET /{environment}/settings: the account's settings in this environment (the automatic close-out).
export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Settings of this environment. Test and live each have their own." />
      <CloseOutSettingsForm />
    </>
  );
}
