'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { RoleNote } from '@/components/layout/role';
import { statusLabel } from '@/components/lifecycle/status-badge';
import { Alert, Button, Field, FocusOnMount, Input, RequestLink, Select } from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';
import type { TManifest } from '@/lib/portal/package-list-types';
import { SECURITY_STATUSES } from '@/lib/schemas/customs';
import {
  AMEND_FIELDS,
  amendValues,
  changedFields,
  HEADER_GROUPS,
  headerFieldOf,
  headerMaxLength,
  MANIFEST_DAY_RANGE,
  ZAmendForm,
  type AmendField,
  type AmendValues,
} from './header-fields';

/** Labels, hints and input kinds as the builder has them, so a field reads the same in both places. */
const SPECS = HEADER_GROUPS.flatMap((g) => g.fields).filter((f): f is typeof f & { name: AmendField } =>
  (AMEND_FIELDS as readonly string[]).includes(f.name),
);

/** A container's header can be amended while it is on the ground (lib/customs/amend-container.ts). */
const ON_THE_GROUND = new Set(['manifested', 'received']);

const labelOf = (field: string) => SPECS.find((s) => s.name === field)?.label ?? field;

/**
 * "Amend air cargo header" on a container's page: offered while the container is on the ground and to a role with
 * shipments:write (the API's manifests:write); otherwise the page says why. A refusal that arrives as the container
 * departs stays shown here after the page reloads it as departed.
 */
export function AmendHeader({ manifest: m }: { manifest: TManifest }) {
  const canWrite = useCan('shipments:write');
  const [refused, setRefused] = useState<PortalError | null>(null);
  const amendable = ON_THE_GROUND.has(m.status);
  return (
    <section aria-labelledby="amend-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="amend-heading" className="text-base font-semibold text-slate-900">
        Amend air cargo header
      </h2>
      {!amendable ? (
        <div className="mt-2 space-y-2 text-sm text-slate-700">
          <p>
            {m.status === 'cancelled'
              ? 'The container is cancelled: its air cargo header is no longer amended.'
              : `The container is ${statusLabel(m.status).toLowerCase()}: its air cargo header went with the flight and can no longer be amended.`}
          </p>
          {refused ? (
            <Alert tone="danger">
              {refused.message}
              <RequestLink error={refused} />
            </Alert>
          ) : null}
        </div>
      ) : !canWrite ? (
        <RoleNote className="mt-2 text-sm text-slate-600" what="amend the air cargo header" permission="shipments:write" />
      ) : (
        <AmendForm manifest={m} onRefused={setRefused} />
      )}
    </section>
  );
}

function AmendForm({ manifest: m, onRefused }: { manifest: TManifest; onRefused: (error: PortalError) => void }) {
  const portal = usePortalEnvironment();
  const client = useQueryClient();
  const id = m.ManifestID;
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<{ text: string; error?: unknown } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm<AmendValues>({ resolver: zodResolver(ZAmendForm), defaultValues: amendValues(m) });
  const { errors } = form.formState;
  // A double click submits twice before the pending state disables the button: one request only.
  const sending = useRef(false);
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      portal.fetch<TManifest>(`/portal-api/manifests/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
    onSuccess: (answer, body) => {
      client.setQueryData(portal.key('manifest', id), answer);
      form.reset(amendValues(answer));
      setSaved(`Saved: ${Object.keys(body).map(labelOf).join(', ')}. Customs readiness is checked again.`);
    },
    onError: (error) => {
      if (error instanceof PortalError && error.code === 'not_amendable') onRefused(error);
      const unplaced: string[] = [];
      if (error instanceof PortalError && error.status === 422) {
        for (const detail of error.details) {
          const field = headerFieldOf(detail.path);
          if (field && (AMEND_FIELDS as readonly string[]).includes(field))
            form.setError(field as AmendField, { type: 'server', message: detail.message });
          else unplaced.push(`${detail.path}: ${detail.message}`);
        }
        const first = AMEND_FIELDS.find((f) => form.getFieldState(f).error);
        if (first) form.setFocus(first);
      }
      if (!(error instanceof PortalError && error.status === 422 && unplaced.length === 0))
        setFormError({ text: unplaced.join(' ') || (error instanceof Error ? error.message : 'Something went wrong.'), error });
    },
    onSettled: () => {
      sending.current = false;
      // Readiness reads the stored header, and a refusal may mean the container departed: both are read again.
      void client.invalidateQueries({ queryKey: portal.key('manifest', id) });
      void client.invalidateQueries({ queryKey: portal.key('manifest-customs', id) });
      void client.invalidateQueries({ queryKey: portal.key('manifests') });
    },
  });

  // The button that opened the form is gone: focus goes to its first field, not to the page's top.
  useEffect(() => {
    if (open) form.setFocus(AMEND_FIELDS[0]);
  }, [open, form]);

  if (!open) {
    return (
      <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <p className="mr-auto">AWB, ULD, seal, flight, airports and security can be changed until the container departs.</p>
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Amend air cargo header
        </Button>
        {saved ? (
          <p role="status" className="basis-full text-green-800">
            {saved}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <form
      noValidate
      aria-labelledby="amend-heading"
      className="mt-3 space-y-4"
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          if (sending.current) return;
          setFormError(null);
          setSaved(null);
          const body = changedFields(values, form.formState.defaultValues as AmendValues);
          if (Object.keys(body).length === 0) {
            setFormError({ text: 'Nothing changed: edit a field first.' });
            return;
          }
          sending.current = true;
          save.mutate(body);
        })(event)
      }
    >
      <p className="text-sm text-slate-700">
        Only the fields you change are sent; an emptied field is removed. Each is checked as when the container was accepted.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        {SPECS.map((spec) => (
          <Field key={spec.name} label={spec.label} hint={spec.hint} error={errors[spec.name]?.message}>
            {spec.name === 'SecurityStatus' ? (
              <Select {...form.register(spec.name)}>
                <option value="">None</option>
                {SECURITY_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {status}
                  </option>
                ))}
              </Select>
            ) : (
              <Input
                type={spec.type ?? 'text'}
                inputMode={spec.inputMode}
                placeholder={spec.placeholder}
                maxLength={spec.type === 'date' ? undefined : headerMaxLength(spec.name)}
                {...(spec.type === 'date' ? MANIFEST_DAY_RANGE : {})}
                autoComplete="off"
                {...form.register(spec.name)}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={save.isPending}>
          Save changes
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            form.reset(amendValues(m));
            setFormError(null);
            setOpen(false);
          }}
        >
          Close
        </Button>
      </div>
      {saved ? (
        <FocusOnMount focusKey={saved}>
          <Alert tone="success">{saved}</Alert>
        </FocusOnMount>
      ) : null}
      {formError ? (
        <FocusOnMount focusKey={formError.text}>
          <Alert tone="danger">
            {formError.text}
            <RequestLink error={formError.error} />
          </Alert>
        </FocusOnMount>
      ) : null}
    </form>
  );
}
