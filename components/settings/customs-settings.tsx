'use client';
import { ToggleSetting } from './toggle-setting';

/** Hold a live container at departure until its customs readiness holds. */
export function CustomsSettingsForm() {
  return (
    <ToggleSetting
      name="customs"
      field="enforce_readiness"
      title="Customs before departure"
      label="Hold a live container until its customs data is ready"
      hint="Recommended once your manifests carry full customs data."
      saidOnSave={(on) => `Saved: ${on ? 'live containers depart only when ready' : 'readiness is shown, never enforced'}.`}
    >
      Each manifest shows its readiness for the destination&apos;s customs filings (EU ICS2, US ACAS, Canada eManifest). With this
      on, a live container whose readiness does not hold for a regime that applies is not loaded: its departure scan is refused,
      naming the regimes. The test environment never holds a container. This setting is for the whole account.
    </ToggleSetting>
  );
}
