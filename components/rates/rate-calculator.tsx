'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardTitle,
  EmptyState,
  Field,
  Input,
  RequestLink,
  Select,
  Table,
  Td,
  Th,
  Tr,
} from '@/components/ui';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import { applyFieldErrors } from '@/lib/portal/fetcher';
import { formatMoney } from '@/lib/portal/format';
import { SERVICES, WEIGHT_UNITS, ZRateRequest, type TRateResponse } from '@/lib/schemas/rate';
import { AirportCombobox } from './airport-combobox';

// The form's values are exactly the API's snake_case request body, as text.
interface RateForm {
  weight: string;
  weight_unit: string;
  from_zip: string;
  to_zip: string;
  service: string;
  length: string;
  width: string;
  height: string;
  origin: string;
  destination: string;
}

/**
 * The form as text, checked by the API's own schema: its issues are the form's, with their paths. The values the
 * form submits stay the text typed (raw), which is the body the API is sent and parses itself.
 */
const ZRateForm = z
  .object({
    weight: z.string(),
    weight_unit: z.string(),
    from_zip: z.string(),
    to_zip: z.string(),
    service: z.string(),
    length: z.string(),
    width: z.string(),
    height: z.string(),
    origin: z.string(),
    destination: z.string(),
  })
  .superRefine((values, ctx) => {
    for (const issue of ZRateRequest.safeParse(values).error?.issues ?? []) ctx.addIssue({ ...issue });
  });
const resolver = zodResolver(ZRateForm, undefined, { raw: true });

const FIELDS = [
  'weight',
  'weight_unit',
  'from_zip',
  'to_zip',
  'service',
  'length',
  'width',
  'height',
  'origin',
  'destination',
] as const;

function QuotesTable({ result }: { result: TRateResponse }) {
  const cheapest = Math.min(...result.rates.map((r) => Number(r.amount)));
  const fastest = Math.min(...result.rates.map((r) => r.delivery_days));
  return (
    <Table label="Quotes by service">
      <caption className="sr-only">Quotes, cheapest and fastest marked</caption>
      <thead>
        <tr>
          <Th>Service</Th>
          <Th className="text-right">Amount</Th>
          <Th className="text-right">Delivery days</Th>
          <Th className="text-right">Billable weight</Th>
          <Th className="text-right">Zone</Th>
        </tr>
      </thead>
      <tbody>
        {result.rates.map((quote) => (
          <Tr key={quote.service} data-testid="quote-row">
            <Td>
              <span className="font-medium">{quote.service}</span>
              <span className="ml-2 inline-flex gap-1">
                {Number(quote.amount) === cheapest ? <Badge tone="success">Cheapest</Badge> : null}
                {quote.delivery_days === fastest ? <Badge tone="info">Fastest</Badge> : null}
              </span>
            </Td>
            <Td className="text-right font-mono">{formatMoney(quote.amount)}</Td>
            <Td className="text-right">{quote.delivery_days}</Td>
            <Td className="text-right">{quote.billable_weight} lb</Td>
            <Td className="text-right">{quote.zone}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

export function RateCalculator() {
  const [formError, setFormError] = useState<string[]>([]);
  const form = useForm<RateForm>({
    resolver,
    defaultValues: {
      weight: '',
      weight_unit: 'lb',
      from_zip: '',
      to_zip: '',
      service: '',
      length: '',
      width: '',
      height: '',
      origin: '',
      destination: '',
    },
    mode: 'onSubmit',
  });
  const { errors } = form.formState;
  const portal = usePortalEnvironment();
  const quote = useMutation({
    mutationFn: (body: RateForm) => portal.fetch<TRateResponse>('/portal-api/rates', { body }),
    onError: (error) => setFormError(applyFieldErrors(error, form.setError, FIELDS)),
  });

  const onSubmit = form.handleSubmit(() => {
    setFormError([]);
    quote.mutate(form.getValues());
  });

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
      <Card>
        <CardTitle>Package</CardTitle>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-4 space-y-4" aria-label="Rate request">
          <div className="grid grid-cols-[minmax(0,1fr)_7rem] gap-3">
            <Field label="Weight" error={errors.weight?.message} required>
              <Input inputMode="decimal" {...form.register('weight')} />
            </Field>
            <Field label="Unit" error={errors.weight_unit?.message}>
              <Select {...form.register('weight_unit')}>
                {WEIGHT_UNITS.map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <fieldset>
            <legend className="mb-1 text-sm font-medium text-slate-800">Dimensions (inches)</legend>
            <div className="grid grid-cols-3 gap-3">
              <Field label="Length" error={errors.length?.message} required>
                <Input inputMode="decimal" {...form.register('length')} />
              </Field>
              <Field label="Width" error={errors.width?.message} required>
                <Input inputMode="decimal" {...form.register('width')} />
              </Field>
              <Field label="Height" error={errors.height?.message} required>
                <Input inputMode="decimal" {...form.register('height')} />
              </Field>
            </div>
          </fieldset>
          <Field label="Service" error={errors.service?.message} hint="Leave on “All services” to compare every rate card.">
            <Select {...form.register('service')}>
              <option value="">All services</option>
              {SERVICES.map((service) => (
                <option key={service} value={service}>
                  {service}
                </option>
              ))}
            </Select>
          </Field>
          <fieldset>
            <legend className="mb-1 text-sm font-medium text-slate-800">ZIP codes (Carrier Express, Carrier Ground)</legend>
            <div className="grid grid-cols-2 gap-3">
              <Field label="From ZIP" error={errors.from_zip?.message}>
                <Input inputMode="numeric" autoComplete="off" {...form.register('from_zip')} />
              </Field>
              <Field label="To ZIP" error={errors.to_zip?.message}>
                <Input inputMode="numeric" autoComplete="off" {...form.register('to_zip')} />
              </Field>
            </div>
          </fieldset>
          <fieldset>
            <legend className="mb-1 text-sm font-medium text-slate-800">Airports (AirSkip)</legend>
            <div className="grid grid-cols-2 gap-3">
              {(['origin', 'destination'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field, fieldState }) => (
                    <Field label={name === 'origin' ? 'Origin airport' : 'Destination airport'} error={fieldState.error?.message}>
                      <AirportCombobox
                        name={field.name}
                        value={field.value}
                        onChange={field.onChange}
                        onBlur={field.onBlur}
                        ref={field.ref}
                      />
                    </Field>
                  )}
                />
              ))}
            </div>
          </fieldset>
          {formError.length > 0 ? (
            <Alert tone="danger">
              {formError.map((message) => (
                <span key={message} className="block">
                  {message}
                </span>
              ))}
              <RequestLink error={quote.error} />
            </Alert>
          ) : quote.isError ? (
            <RequestLink error={quote.error} className="block text-xs text-slate-700" />
          ) : null}
          <Button type="submit" loading={quote.isPending} className="w-full">
            Get rates
          </Button>
        </form>
      </Card>

      <section aria-labelledby="quotes-heading" aria-live="polite">
        <Card>
          <CardTitle>
            <span id="quotes-heading">Quotes</span>
          </CardTitle>
          <div className="mt-4 space-y-4">
            {quote.isPending ? (
              <p className="text-sm text-slate-600">Pricing…</p>
            ) : quote.data ? (
              <>
                <QuotesTable result={quote.data} />
                {quote.data.messages?.length ? (
                  <div>
                    <h3 className="text-sm font-semibold text-slate-800">Not quoted</h3>
                    <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700" data-testid="rate-messages">
                      {quote.data.messages.map((m) => (
                        <li key={m.service}>
                          <span className="font-medium">{m.service}</span>: {m.message}
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
              </>
            ) : quote.isError ? (
              <EmptyState title="No quotes">Fix the highlighted fields and try again.</EmptyState>
            ) : (
              <EmptyState title="No quotes yet">Enter a package and its route, then choose “Get rates”.</EmptyState>
            )}
          </div>
        </Card>
      </section>
    </div>
  );
}
