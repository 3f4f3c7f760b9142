'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Alert, Button, Card, CardTitle, Field, Input, RequestLink } from '@/components/ui';
import { applyFieldErrors } from '@/lib/portal/fetcher';
import {
  WEBHOOK_EVENTS,
  ZCreateWebhookRequest,
  type TCreateWebhookRequest,
  type TCreateWebhookRequestInput,
  type WebhookEvent,
} from '@/lib/schemas/webhooks';

type EndpointForm = UseFormReturn<z.input<typeof ZCreateWebhookRequest>, unknown, TCreateWebhookRequest>;

// The form holds what a client would send (the schema's input); a valid submit hands over its output, parsed.
const resolver = zodResolver(ZCreateWebhookRequest);

/**
 * Adding or editing an endpoint: its fields, the server's refusals on them (or in an alert), submit and cancel.
 * `send` posts the body (POST for a new endpoint, PATCH for an edit); `onSaved` gets what it answered.
 */
export function EndpointFormCard<R>({
  title,
  submitLabel,
  idPrefix,
  defaultValues,
  send,
  beforeSend,
  onSaved,
  onCancel,
}: {
  title: string;
  submitLabel: string;
  idPrefix: string;
  defaultValues: z.input<typeof ZCreateWebhookRequest>;
  send: (body: TCreateWebhookRequestInput) => Promise<R>;
  /** Asked before sending a valid form (a confirmation): false sends nothing. */
  beforeSend?: (body: TCreateWebhookRequest) => Promise<boolean>;
  onSaved: (result: R) => void;
  onCancel: () => void;
}) {
  const [problem, setProblem] = useState<string[]>([]);
  const form: EndpointForm = useForm({ resolver, defaultValues });
  const save = useMutation({
    mutationFn: send,
    onSuccess: onSaved,
    onError: (error) => setProblem(applyFieldErrors(error, form.setError, ['url', 'events', 'description'])),
  });
  const submit = form.handleSubmit(async (values) => {
    setProblem([]);
    if (beforeSend && !(await beforeSend(values))) return;
    save.mutate(values);
  });
  return (
    <Card>
      <CardTitle>{title}</CardTitle>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 space-y-4">
        <EndpointFields form={form} idPrefix={idPrefix} />
        {problem.length ? (
          <Alert tone="danger">
            {problem.join(' ')}
            <RequestLink error={save.error} />
          </Alert>
        ) : save.isError ? (
          <RequestLink error={save.error} className="block text-xs text-slate-700" />
        ) : null}
        <div className="flex gap-2">
          <Button type="submit" loading={save.isPending}>
            {submitLabel}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** What each event announces, next to its checkbox. */
export const EVENT_DESCRIPTIONS: Record<WebhookEvent, string> = {
  'package.sorting': 'a package manifest was accepted',
  'package.received': 'a package was received at the hub',
  'package.in_transit': 'a package is in transit',
  'package.out_for_delivery': 'a package is out for delivery',
  'package.delivered': 'a package was delivered',
  'package.exception': 'a package has an exception',
  'package.cancelled': 'a package was cancelled',
  'container.received': 'a container was received',
  'container.departed': 'a container departed',
  'container.arrived': 'a container arrived',
  'container.closed': 'a container was closed (unloaded, its packages handed on)',
  'container.cancelled': 'a container manifest was cancelled',
  'manifest.cancelled': 'a manifest was cancelled',
  'manifest.closed': 'a daily manifest was closed',
  'customs.assessment_complete': 'customs completed its assessment of a house or a container',
  'customs.information_requested': 'customs asked for more information',
  'customs.screening_requested': 'customs asked for the goods to be screened',
  'customs.do_not_load': 'customs said do not load: the container cannot depart with it',
  'customs.released': 'customs released the goods',
  'package.amended': "a package's house data (customs declaration, consignee) was amended",
  'package.offloaded': 'a house held by customs was taken out of its container before departure',
  'container.amended': "a container's air cargo header (flight, AWB, ULD, security) was amended",
  'package.adjusted': 'a package was re-rated on what the hub measured (weight or dimensions), with the difference',
  'invoice.created': "an invoice was issued at its period's close (or by a test-path close)",
  'pickup.scheduled': 'a pickup was scheduled',
  'pickup.cancelled': 'a pickup was cancelled before its window',
  'pickup.completed': 'the driver collected a pickup',
  'package.return_created': 'a return package was made for a delivered package',
};

/** An endpoint's URL, events and description: the same fields when adding an endpoint and when editing one. */
function EndpointFields({ form, idPrefix }: { form: EndpointForm; idPrefix: string }) {
  const errors = form.formState.errors;
  const eventsError = `${idPrefix}-events-error`;
  return (
    <>
      <Field label="Endpoint URL" required error={errors.url?.message} hint="We POST signed JSON here (Standard Webhooks).">
        <Input type="url" placeholder="https://example.com/webhooks/carrier" autoComplete="off" {...form.register('url')} />
      </Field>
      <fieldset aria-describedby={errors.events ? eventsError : undefined}>
        <legend className="text-sm font-medium text-slate-800">
          Events{' '}
          <span className="text-red-700" aria-hidden="true">
            *
          </span>
        </legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="flex items-start gap-2 text-sm text-slate-800">
              <input type="checkbox" value={event} {...form.register('events')} className="mt-0.5 h-4 w-4 shrink-0" />
              <span>
                <code>{event}</code> <span className="text-slate-600">— {EVENT_DESCRIPTIONS[event]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.events ? (
          <p id={eventsError} className="mt-1 text-sm text-red-700">
            {errors.events.message ?? 'Choose at least one event'}
          </p>
        ) : null}
      </fieldset>
      <Field label="Description" error={errors.description?.message}>
        <Input autoComplete="off" {...form.register('description')} />
      </Field>
    </>
  );
}
