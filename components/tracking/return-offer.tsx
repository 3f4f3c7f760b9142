import { Alert, Card, Field, Input, buttonClass } from '@/components/ui';

// "Return this parcel" on the public tracking page (docs/decisions/returns.md "From the public tracking page"): a plain
// POST form, so it works without JavaScript; the answer comes back to the page (?return=…). The page shows no address:
// the recipient types the postal code, and only their browser, holding the grant cookie, sees the label.

// A wrong or malformed code is said once, at the field; what the field cannot fix is said above the form.
const FIELD_PROBLEMS: Record<string, string> = {
  wrong: 'That postal code does not match this parcel. Type the delivery address’s postal code, as printed on the label.',
  invalid: 'Type a postal code as printed on the label: 3 to 10 letters or digits.',
};

const FORM_PROBLEMS: Record<string, string> = {
  limited: 'Too many attempts for this parcel or from your network. Try again in an hour, or contact the shipper.',
  unavailable:
    'This parcel cannot be returned online: the shipper did not give us all that a return label needs. Contact the shipper.',
};

export function ReturnOffer({ barcode, problem }: { barcode: string; problem?: string }) {
  const atField = problem ? FIELD_PROBLEMS[problem] : undefined;
  const atForm = problem ? FORM_PROBLEMS[problem] : undefined;
  return (
    <Card>
      <section aria-labelledby="return-title">
        <h2 id="return-title" className="text-base font-semibold text-slate-900">
          Return this parcel
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          The shipper lets you send this parcel back. To show that you have it, type the postal code of the address it was
          delivered to, as printed on its label. You then get a return label to print.
        </p>
        {atForm ? (
          <div className="mt-4">
            <Alert tone="warning">{atForm}</Alert>
          </div>
        ) : null}
        <form
          method="post"
          action={`/api/track/${encodeURIComponent(barcode)}/return`}
          aria-label="Return this parcel"
          className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto] sm:items-start"
        >
          <Field
            label="Postal code on the label"
            hint="The delivery address's postal code."
            error={atField}
            id="return-postal-code"
            required
          >
            <Input name="postal_code" required maxLength={16} autoComplete="off" spellCheck={false} />
          </Field>
          <button type="submit" className={`${buttonClass()} sm:mt-6`}>
            Get a return label
          </button>
        </form>
      </section>
    </Card>
  );
}

/** The answer to a proven request: the return's number and its label, for this browser only (the grant cookie). */
export function ReturnMade({ barcode, returnTrackingNumber }: { barcode: string; returnTrackingNumber: string }) {
  return (
    <Card>
      <section aria-labelledby="return-title">
        <h2 id="return-title" className="text-base font-semibold text-slate-900">
          Your return is ready
        </h2>
        <div className="mt-3">
          <Alert tone="success">
            Print the return label, stick it on the parcel over the old one, and hand the parcel to the carrier.
          </Alert>
        </div>
        <dl className="mt-4 text-sm">
          <dt className="font-medium text-slate-600">Return tracking number</dt>
          <dd className="mt-1 break-all font-mono text-slate-900">{returnTrackingNumber}</dd>
        </dl>
        <a
          href={`/api/track/${encodeURIComponent(barcode)}/return/label`}
          className={`${buttonClass()} mt-4 inline-flex`}
          download
        >
          Download the return label (PDF)
        </a>
        <p className="mt-2 text-xs text-slate-600">The link works in this browser for an hour.</p>
      </section>
    </Card>
  );
}
