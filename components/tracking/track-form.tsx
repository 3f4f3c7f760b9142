import { Field, Input, buttonClass } from '@/components/ui';

/**
 * The lookup: a tracking number and the destination postal code, or a carrier barcode alone. A plain GET form to
 * /track (which sends it on to /track/{number}), so it works without JavaScript.
 */
export function TrackForm({ number = '', postalCode = '', error }: { number?: string; postalCode?: string; error?: string }) {
  return (
    <form
      method="get"
      action="/track"
      aria-label="Track a package"
      className="grid gap-4 sm:grid-cols-[2fr_1fr_auto] sm:items-start"
    >
      <Field
        label="Tracking number or carrier barcode"
        hint="As printed on the label. A carrier barcode starts with CB."
        error={error}
        id="track-number"
      >
        <Input
          name="number"
          defaultValue={number}
          required
          maxLength={64}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          inputMode="text"
        />
      </Field>
      <Field label="Destination postal code" hint="Needed with a tracking number." id="track-postal-code">
        <Input name="postal_code" defaultValue={postalCode} maxLength={16} autoComplete="postal-code" spellCheck={false} />
      </Field>
      <button type="submit" className={`${buttonClass()} sm:mt-6`}>
        Track
      </button>
    </form>
  );
}
