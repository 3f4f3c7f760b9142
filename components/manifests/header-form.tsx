'use client';
import { useId, useState } from 'react';
import { useFormState, useWatch, type UseFormReturn } from 'react-hook-form';
import { Field, Input } from '@/components/ui';
import { SECURITY_STATUSES } from '@/lib/schemas/customs';
import { SERVICES } from '@/lib/schemas/rate';
import {
  headerMaxLength,
  MANIFEST_DAY_RANGE,
  HEADER_GROUPS,
  REQUIRED_HEADER_FIELDS,
  type HeaderField,
  type HeaderValues,
} from './header-fields';

type Group = (typeof HEADER_GROUPS)[number];

/**
 * The manifest's header fields, in their groups. On a phone (below 640 px) a group shows its required fields and
 * any optional field that holds a value or an error; the rest wait behind "Show n optional fields", so the builder
 * is not three screens of empty inputs before the packages. At wider widths every field is shown.
 */
export function HeaderForm({ form }: { form: UseFormReturn<HeaderValues> }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {HEADER_GROUPS.map((group) => (
        <HeaderGroup key={group.title} group={group} form={form} />
      ))}
      <datalist id="service-names">
        {SERVICES.map((service) => (
          <option key={service} value={service} />
        ))}
      </datalist>
      <datalist id="security-statuses">
        {SECURITY_STATUSES.map((status) => (
          <option key={status} value={status} />
        ))}
      </datalist>
    </div>
  );
}

function HeaderGroup({ group, form }: { group: Group; form: UseFormReturn<HeaderValues> }) {
  const optional = group.fields.map((f) => f.name).filter((name) => !REQUIRED_HEADER_FIELDS.has(name));
  const values = useWatch({ control: form.control, name: optional });
  const { errors } = useFormState({ control: form.control, name: optional });
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  // An optional field folds away on a phone only while it is empty and without an error.
  const folded = new Set<HeaderField>(expanded ? [] : optional.filter((name, i) => !(values[i] ?? '').trim() && !errors[name]));

  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <legend className="px-1 text-base font-semibold text-slate-900">{group.title}</legend>
      <div id={listId} className="grid gap-3 sm:grid-cols-2">
        {group.fields.map((spec) => (
          <Field
            key={spec.name}
            label={spec.label}
            required={REQUIRED_HEADER_FIELDS.has(spec.name)}
            hint={spec.hint}
            error={form.formState.errors[spec.name]?.message}
            className={
              [spec.wide ? 'sm:col-span-2' : '', folded.has(spec.name) ? 'max-sm:hidden' : ''].join(' ').trim() || undefined
            }
          >
            <Input
              type={spec.type ?? 'text'}
              inputMode={spec.inputMode}
              placeholder={spec.placeholder}
              list={
                spec.name === 'ServiceName' ? 'service-names' : spec.name === 'SecurityStatus' ? 'security-statuses' : undefined
              }
              maxLength={spec.type === 'date' ? undefined : headerMaxLength(spec.name)}
              {...(spec.type === 'date' ? MANIFEST_DAY_RANGE : {})}
              autoComplete="off"
              {...form.register(spec.name)}
            />
          </Field>
        ))}
      </div>
      {folded.size > 0 || expanded ? (
        <button
          type="button"
          className="mt-3 text-sm font-medium text-blue-800 underline underline-offset-2 sm:hidden"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? 'Hide empty optional fields' : `Show ${folded.size} optional field${folded.size === 1 ? '' : 's'}`}
        </button>
      ) : null}
    </fieldset>
  );
}
