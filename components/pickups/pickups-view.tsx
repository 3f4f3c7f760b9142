'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { PortalLink, useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardTitle,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  Field,
  Input,
  ListTable,
  LoadingBlock,
  Td,
  Th,
  Tr,
  DateTime,
  useFormatDateTime,
} from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';
import type { TPickup } from '@/lib/schemas/pickups';
import type { TManifest, TPackageList } from '@/lib/portal/package-list-types';

interface PickupList {
  data: TPickup[];
  has_more: boolean;
  next_cursor: string | null;
}

interface FormValues {
  manifest_id: string;
  company: string;
  address1: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  phone: string;
  ready_local: string;
  close_local: string;
  instructions: string;
}

// The server's paths (address.city, ready_at) on the form's fields.
const FIELD_OF: Record<string, keyof FormValues> = {
  manifest_id: 'manifest_id',
  'address.company': 'company',
  'address.address1': 'address1',
  'address.city': 'city',
  'address.state': 'state',
  'address.postal_code': 'postal_code',
  'address.country': 'country',
  'address.phone': 'phone',
  ready_at: 'ready_local',
  close_at: 'close_local',
  instructions: 'instructions',
};

const TONE = { scheduled: 'info', completed: 'success', cancelled: 'neutral' } as const;

/** A datetime-local input's value for a moment `hours` from now, on the hour, in the browser's zone. */
function localInput(hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  at.setMinutes(0, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:00`;
}

const packages = (n: number) => `${n.toLocaleString()} package${n === 1 ? '' : 's'}`;

/** The form's address fields and the manifest's sender fields they are prefilled from. */
const SENDER_FIELDS = [
  ['company', 'FromCompany'],
  ['address1', 'FromAddress1'],
  ['city', 'FromCity'],
  ['state', 'FromState'],
  ['postal_code', 'FromPostalCode'],
  ['country', 'FromCountry'],
  ['phone', 'FromPhone'],
] as const;

/**
 * Where a manifest's packages are collected from, as its sender gave it: a container's header, a daily manifest's first
 * package (its packages' senders are usually one dock). Undefined while it loads, or for an unknown manifest.
 */
function useManifestSender(manifestId: string): Record<string, unknown> | undefined {
  const portal = usePortalEnvironment();
  const id = encodeURIComponent(manifestId);
  const manifest = useQuery({
    queryKey: portal.key('manifest', manifestId),
    queryFn: ({ signal }) => portal.fetch<TManifest>(`/portal-api/manifests/${id}`, { signal }),
    enabled: manifestId !== '',
    retry: false,
  });
  const daily = manifest.data?.type === 'daily';
  const first = useQuery({
    queryKey: portal.key('manifest-first-package', manifestId),
    queryFn: ({ signal }) => portal.fetch<TPackageList>(`/portal-api/manifests/${id}/packages?limit=1`, { signal }),
    enabled: daily,
    retry: false,
  });
  if (!manifest.data) return undefined;
  return daily ? first.data?.data[0] : manifest.data;
}

export function PickupsView() {
  const when = useFormatDateTime();
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const canSchedule = useCan('shipments:write');
  const manifest = useSearchParams().get('manifest') ?? '';
  const [scheduled, setScheduled] = useState<TPickup | null>(null);
  const [cancelling, setCancelling] = useState<TPickup | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  // Focus on the result once it is on the page (a frame after the answer was not always late enough on a busy machine).
  useEffect(() => {
    if (scheduled) resultRef.current?.focus();
  }, [scheduled]);
  const list = useQuery({
    queryKey: portal.key('pickups'),
    queryFn: ({ signal }) => portal.fetch<PickupList>('/portal-api/pickups?limit=100', { signal }),
  });
  const form = useForm<FormValues>({
    defaultValues: {
      manifest_id: manifest,
      company: '',
      address1: '',
      city: '',
      state: '',
      postal_code: '',
      country: 'US',
      phone: '',
      ready_local: localInput(5),
      close_local: localInput(9),
      instructions: '',
    },
  });
  // From a manifest's "Schedule a pickup": its sender's address fills the fields still empty, once.
  const sender = useManifestSender(manifest);
  const prefilled = useRef(false);
  useEffect(() => {
    if (!sender || prefilled.current) return;
    prefilled.current = true;
    for (const [field, from] of SENDER_FIELDS) {
      const value = sender[from];
      // The country's field starts as US, a default rather than what someone typed.
      const untouched = field === 'country' ? !form.getFieldState(field).isDirty : form.getValues(field).trim() === '';
      if (typeof value === 'string' && value.trim() !== '' && untouched)
        form.setValue(field, value.trim(), { shouldDirty: true });
    }
  }, [sender, form]);
  // Focus moves to the result once it is on the page (a frame's callback could run before React had rendered it).
  useEffect(() => {
    if (scheduled) resultRef.current?.focus();
  }, [scheduled]);
  const [problem, setProblem] = useState<string[]>([]);
  const schedule = useMutation({
    mutationFn: (v: FormValues) =>
      portal.fetch<TPickup>('/portal-api/pickups', {
        body: {
          manifest_id: v.manifest_id.trim(),
          address: {
            company: v.company,
            address1: v.address1,
            city: v.city,
            state: v.state,
            postal_code: v.postal_code,
            country: v.country,
            phone: v.phone,
          },
          // The browser's zone: a datetime-local value is read as local time, sent with its offset (as UTC).
          ready_at: new Date(v.ready_local).toISOString(),
          close_at: new Date(v.close_local).toISOString(),
          instructions: v.instructions,
        },
      }),
    onSuccess: (pickup) => {
      setScheduled(pickup);
      void queryClient.invalidateQueries({ queryKey: portal.key('pickups') });
    },
    onError: (error) => {
      if (!(error instanceof PortalError)) return setProblem([error instanceof Error ? error.message : 'Something went wrong.']);
      const unplaced: string[] = [];
      for (const detail of error.details) {
        const field = FIELD_OF[detail.path];
        if (field) form.setError(field, { type: 'server', message: detail.message });
        else unplaced.push(`${detail.path}: ${detail.message}`);
      }
      setProblem(error.details.length === 0 ? [error.message] : unplaced);
    },
  });
  const cancel = useMutation({
    mutationFn: (pickup: TPickup) =>
      portal.fetch<TPickup>(`/portal-api/pickups/${encodeURIComponent(pickup.id)}/cancel`, { body: {} }),
    onSuccess: () => {
      setCancelling(null);
      void queryClient.invalidateQueries({ queryKey: portal.key('pickups') });
    },
  });
  const submit = form.handleSubmit((values) => {
    setProblem([]);
    setScheduled(null);
    schedule.mutate(values);
  });
  const errors = form.formState.errors;
  const text = (name: keyof FormValues, label: string, options: { required?: boolean; hint?: string; type?: string } = {}) => (
    <Field label={label} required={options.required} error={errors[name]?.message} hint={options.hint}>
      <Input
        id={`pickup-${name}`}
        type={options.type ?? 'text'}
        {...form.register(name, options.required ? { required: 'is required' } : {})}
      />
    </Field>
  );

  return (
    <div className="space-y-6">
      {canSchedule ? (
        <Card>
          <CardTitle>Schedule a pickup</CardTitle>
          <p className="mt-1 text-sm text-slate-700">
            The driver collects every package of the manifest not yet received. AirSkip needs 4 hours&apos; notice, Carrier
            Express 1 hour, others 2 hours; the window lasts 2 to 12 hours. Times are in your browser&apos;s time zone.
          </p>
          {manifest && sender ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="pickup-prefilled">
              For manifest <span className="font-mono">{manifest}</span>: the address is its sender&apos;s; check it before you
              schedule.
            </p>
          ) : null}
          <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              {text('manifest_id', 'Manifest ID', { required: true, hint: 'MAN-… from the manifest page.' })}
              {text('company', 'Company', { required: true })}
              {text('address1', 'Address', { required: true })}
              {text('city', 'City', { required: true })}
              {text('state', 'State or province', { required: true })}
              {text('postal_code', 'Postal code', { required: true })}
              {text('country', 'Country')}
              {text('phone', 'Phone', { type: 'tel' })}
              {text('ready_local', 'Ready from', { required: true, type: 'datetime-local' })}
              {text('close_local', 'Closes at', { required: true, type: 'datetime-local' })}
            </div>
            {text('instructions', 'Instructions for the driver', { hint: 'At most 500 characters.' })}
            {problem.length > 0 ? <Alert tone="danger">{problem.join(' ')}</Alert> : null}
            <Button type="submit" loading={schedule.isPending}>
              Schedule pickup
            </Button>
          </form>
          {scheduled ? (
            <div ref={resultRef} tabIndex={-1} className="mt-4 outline-none">
              <Alert tone="success">
                Pickup {scheduled.id} scheduled: {packages(scheduled.package_count)}, <DateTime value={scheduled.ready_at} /> –{' '}
                <DateTime value={scheduled.close_at} />.
                {scheduled.warnings?.length
                  ? ` Check the address: ${scheduled.warnings.map((w) => `${w.path} ${w.message}`).join('; ')}.`
                  : ''}
              </Alert>
            </div>
          ) : null}
        </Card>
      ) : null}

      {/* A heading, not a second landmark: the table below is the "Pickups" region already. */}
      <div className="space-y-3">
        <h2 className="text-lg font-semibold text-slate-900">Pickups</h2>
        {list.isPending ? (
          <LoadingBlock label="Loading pickups" />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState title="No pickups yet">Schedule one above, or with POST /pickups.</EmptyState>
        ) : (
          <ListTable
            label="Pickups"
            head={
              <>
                <Th>Pickup</Th>
                <Th>Status</Th>
                <Th>Manifest</Th>
                <Th className="text-right">Packages</Th>
                <Th>Window</Th>
                <Th>Where</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </>
            }
          >
            {list.data.data.map((pickup) => (
              <Tr key={pickup.id}>
                <Td data-label="Pickup" className="font-mono text-xs">
                  {pickup.id}
                </Td>
                <Td data-label="Status">
                  <Badge tone={TONE[pickup.status]}>{pickup.status}</Badge>
                </Td>
                <Td data-label="Manifest">
                  {pickup.manifest_id ? (
                    <PortalLink
                      className="text-brand-700 underline"
                      href={`/manifests/${encodeURIComponent(pickup.manifest_id)}`}
                    >
                      {pickup.manifest_id}
                    </PortalLink>
                  ) : (
                    'Named packages'
                  )}
                </Td>
                <Td data-label="Packages" className="text-right tabular-nums">
                  {pickup.package_count.toLocaleString()}
                </Td>
                <Td data-label="Window">
                  <DateTime value={pickup.ready_at} /> – <DateTime value={pickup.close_at} />
                </Td>
                <Td data-label="Where">
                  {pickup.address.city}, {pickup.address.state}
                </Td>
                <Td>
                  {canSchedule && pickup.status === 'scheduled' && new Date(pickup.ready_at) > new Date() ? (
                    <Button size="sm" variant="secondary" onClick={() => setCancelling(pickup)}>
                      Cancel
                    </Button>
                  ) : null}
                </Td>
              </Tr>
            ))}
          </ListTable>
        )}
      </div>
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancel this pickup?"
        confirmLabel="Cancel pickup"
        busy={cancel.isPending}
        error={cancel.isError ? cancel.error.message : undefined}
        onConfirm={() => cancelling && cancel.mutate(cancelling)}
        onClose={() => {
          setCancelling(null);
          cancel.reset();
        }}
      >
        {cancelling
          ? `No driver will come for ${packages(cancelling.package_count)} between ${when(cancelling.ready_at)} and ${when(cancelling.close_at)}.`
          : null}
      </ConfirmDialog>
    </div>
  );
}
