'use client';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Field, Input } from '@/components/ui';
import { WEBHOOK_EVENTS, type TCreateWebhookRequest, type WebhookEvent, type ZCreateWebhookRequest } from '@/lib/schemas/webhooks';

export type EndpointForm = UseFormReturn<z.input<typeof ZCreateWebhookRequest>, unknown, TCreateWebhookRequest>;

/** What each event announces, next to its checkbox. */
const EVENT_DESCRIPTIONS: Record<WebhookEvent, string> = {
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
  'container.cancelled': 'a container manifest was cancelled',
  'manifest.cancelled': 'a manifest was cancelled',
  'manifest.closed': 'a daily manifest was closed',
};

/** An endpoint's URL, events and description: the same fields when adding an endpoint and when editing one. */
export function EndpointFields({ form, idPrefix }: { form: EndpointForm; idPrefix: string }) {
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
