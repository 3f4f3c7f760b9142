'use client';
import { ToggleSetting } from './toggle-setting';

/** The account's permission for the public tracking page to offer its recipients a return. */
export function ReturnSettingsForm() {
  return (
    <ToggleSetting
      name="returns"
      field="public_returns"
      title="Returns from the tracking page"
      label="Let recipients start a return on the tracking page"
      hint="Off: the page offers no return; you can still make one through the API."
      saidOnSave={(on) =>
        on
          ? 'Saved: the tracking page offers a return once a package is out for delivery.'
          : 'Saved: the tracking page offers no return.'
      }
    >
      When allowed, the public tracking page of a live package that is out for delivery or delivered offers &ldquo;Return this
      parcel&rdquo;. The recipient types the delivery postal code from the label to show they have it, and gets a return label
      back to your address: the same return as <code>POST /packages/&#123;TrackingNumber&#125;/return</code>, one per package,
      with its <code>package.return_created</code> webhook. Nobody who only knows the tracking number sees a label or an address.
      This setting is for the whole account.
    </ToggleSetting>
  );
}
