import type { Metadata } from 'next';
import { BrandingSettingsForm } from '@/components/settings/branding-settings';
import { CloseOutSettingsForm } from '@/components/settings/close-out-settings';
import { CustomsSettingsForm } from '@/components/settings/customs-settings';
import { RecipientMailSettingsForm } from '@/components/settings/recipient-mail-settings';
import { ReturnSettingsForm } from '@/components/settings/return-settings';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Settings' };

// GET /{environment}/settings: the account's settings in this environment (the automatic close-out), and the account's
// own (e-mailing its recipients).
export default function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        description="The automatic close-out is set for each environment; recipient e-mail, returns from the tracking page, customs before departure and the tracking page's branding for the whole account."
      />
      <div className="space-y-6">
        <CloseOutSettingsForm />
        <RecipientMailSettingsForm />
        <ReturnSettingsForm />
        <CustomsSettingsForm />
        <BrandingSettingsForm />
      </div>
    </>
  );
}
