'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { forwardRef, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { PortalLink, usePortal, usePortalEnvironment } from '@/components/layout/portal-context';
import { Alert, Button, Card, CardTitle, ConfirmDialog, CopyButton, RequestLink } from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';
import { ZContainerManifestRequest } from '@/lib/schemas/container-manifest';
import { CsvImport } from './csv-import';
import { ErrorPanel } from './error-panel';
import { GridStore } from './grid-store';
import { HeaderForm } from './header-form';
import { ZHeaderForm, emptyHeader, type HeaderField, type HeaderValues } from './header-fields';
import { buildManifestBody, issueDetails, placeDetails, type ErrorDetail } from './manifest-validation';
import { PackageGrid, cellId } from './package-grid';
import { draftKey, useManifestDraft } from './use-manifest-draft';
import { REPLAYED_HEADER } from '@/lib/api/replayed';
import type { TContainerManifestResponse } from '@/lib/schemas/container-manifest';

/** POST /wf/manifest's answer, and whether it stored the container now (no Idempotent-Replayed header). */
type BuilderResult = TContainerManifestResponse & { created: boolean };

/** The answer's warnings in the grid's words: `ContainerDetails[i]` is the row it came from. */
function warningLines(warnings: { path: string; message: string }[], rowOf: number[]): string[] {
  return warnings.map(({ path, message }) => {
    const at = /^ContainerDetails\[(\d+)\]\.?(.*)$/.exec(path);
    if (!at) return `${path}: ${message}`;
    const row = rowOf[Number(at[1])];
    return `Row ${row === undefined ? Number(at[1]) + 1 : row + 1}${at[2] ? `, ${at[2]}` : ''}: ${message}`;
  });
}

/** Why the last submit was refused: a message (network, server), or problems the error panel lists. */
type Problem =
  | { kind: 'message'; text: string; error?: unknown }
  | {
      kind: 'problems';
      /** The server's refusal, if it was one: linked to its request on the Logs page. */
      error?: unknown;
      /** Server messages that belong to no field or cell (the panel lists them). */
      unplaced: string[];
      conflict?: { message: string; existing?: string };
    };

// The header is validated by the API's own schema (raw: the form keeps its text values).
const resolver = zodResolver(ZHeaderForm, undefined, { raw: true });

export function ManifestBuilder() {
  const { account, environment } = usePortal();
  const portal = usePortalEnvironment();
  const key = draftKey(account.id, environment);
  const [store, setStore] = useState(() => new GridStore());
  // shouldFocusError off: after a refused submit focus goes to the error panel's heading (its links lead on to each field).
  const form = useForm<HeaderValues>({ resolver, mode: 'onTouched', defaultValues: emptyHeader(), shouldFocusError: false });
  const { draftNote, setDraftNote, clearDraft } = useManifestDraft(key, store, form);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [result, setResult] = useState<(BuilderResult & { rowOf: number[] }) | null>(null);
  // After every submit focus moves to what it produced: the error panel's heading, or the result's.
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const resultHeading = useRef<HTMLDivElement>(null);
  const [submits, setSubmits] = useState(0);
  useEffect(() => {
    if (submits === 0) return;
    if (result) resultHeading.current?.focus();
    else (panelHeading.current ?? alertRef.current)?.focus();
  }, [submits, result]);

  // Rows without a tracking number, waiting for the user's yes before they are sent.
  const [untracked, setUntracked] = useState<{ body: Record<string, unknown>; rowOf: number[]; count: number } | null>(null);
  const mutation = useMutation({
    // Sent now or not at all: offline, TanStack Query would hold the request and send it on reconnecting, with
    // nobody watching the page for its answer.
    networkMode: 'always',
    mutationFn: async (body: Record<string, unknown>): Promise<BuilderResult> => {
      let replayed = false;
      const answer = await portal.fetch<TContainerManifestResponse>('/portal-api/manifests', {
        body,
        onHeaders: (headers) => (replayed = headers.get(REPLAYED_HEADER) === 'true'),
      });
      return { ...answer, created: !replayed };
    },
  });

  function discardDraft() {
    if (!window.confirm('Discard this draft? The header and every package row will be cleared.')) return;
    clearDraft();
    form.reset(emptyHeader());
    store.replaceRows([{}, {}, {}]);
    setProblem(null);
    setDraftNote('Draft discarded.');
  }

  function startOver() {
    clearDraft();
    form.reset(emptyHeader());
    setStore(new GridStore());
    setResult(null);
    setProblem(null);
    setDraftNote(null);
  }

  function focusCell(row: number, col: number) {
    store.setFocusInGrid(true);
    store.moveTo(row, col);
    requestAnimationFrame(() => document.getElementById(cellId('packages', row, col))?.focus());
  }

  /** Puts error details (ours or the server's) on header fields and grid cells; returns what did not fit. */
  function applyDetails(details: ErrorDetail[], rowOf: number[]): string[] {
    const placed = placeDetails(details, rowOf);
    for (const [field, message] of placed.header) form.setError(field, { type: 'server', message }, { shouldFocus: false });
    if (placed.rows.size) store.setErrors(placed.rows);
    return placed.unplaced;
  }

  function focusField(field: HeaderField) {
    form.setFocus(field);
  }

  async function submit(header: HeaderValues) {
    try {
      await attempt(header);
    } finally {
      setSubmits((n) => n + 1);
    }
  }

  async function attempt(header: HeaderValues) {
    setProblem(null);
    store.commitEdit();
    store.revalidateAll();
    const { body, rowOf } = buildManifestBody(header, store.values());
    // The same schema the API runs: catch what it would refuse without a round trip.
    const check = ZContainerManifestRequest.safeParse(body);
    if (!check.success) {
      const details = issueDetails(check.error.issues);
      const unplaced = applyDetails(details, rowOf);
      setProblem({ kind: 'problems', unplaced });
      return;
    }
    const count = ((body.ContainerDetails as Record<string, unknown>[] | undefined) ?? []).filter(
      (d) => typeof d.TrackingNumber !== 'string' || d.TrackingNumber.trim() === '',
    ).length;
    if (count > 0) return setUntracked({ body, rowOf, count });
    await send(body, rowOf);
  }

  async function send(body: Record<string, unknown>, rowOf: number[]) {
    setUntracked(null);
    if (!navigator.onLine) {
      return setProblem({
        kind: 'message',
        text: 'You are offline: the manifest was not sent, and will not be sent by itself. Your draft is kept in this browser; create it again once you are back online.',
      });
    }
    try {
      const created = await mutation.mutateAsync(body);
      clearDraft();
      setResult({ ...created, rowOf });
    } catch (error) {
      if (!(error instanceof PortalError))
        return setProblem({ kind: 'message', text: 'Could not reach the server. Your draft is kept; try again.' });
      const unplaced = applyDetails(error.details, rowOf);
      const existing = (error.body as { error?: { ManifestID?: string } } | null)?.error?.ManifestID;
      if (error.status === 409) {
        setProblem({
          kind: 'problems',
          unplaced: existing ? [] : unplaced,
          conflict: { message: error.message, existing },
          error,
        });
      } else if (error.status === 422) setProblem({ kind: 'problems', unplaced, error });
      else setProblem({ kind: 'message', text: error.message, error });
    }
  }

  if (result) {
    return (
      <Card className="max-w-2xl">
        <div ref={resultHeading} tabIndex={-1}>
          <CardTitle>{result.created ? 'Manifest created' : 'Already manifested'}</CardTitle>
        </div>
        <p className="mt-2 text-sm text-slate-700">
          {result.created
            ? `The container and its ${result.PackageCount.toLocaleString()} package${result.PackageCount === 1 ? '' : 's'} are stored.`
            : 'This ContainerID was already manifested with identical content; nothing new was stored.'}
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <span className="text-sm text-slate-700">ManifestID</span>
          <code data-testid="manifest-id" className="rounded bg-slate-100 px-2 py-1 font-mono text-base text-slate-900">
            {result.ManifestID}
          </code>
          <CopyButton value={result.ManifestID} label="Copy ID" />
        </div>
        {result.warnings?.length ? (
          <div className="mt-4" data-testid="manifest-warnings">
            <Alert tone="warning">
              <p className="font-medium">
                Accepted with {result.warnings.length} warning{result.warnings.length === 1 ? '' : 's'}: check these before the
                labels are printed.
              </p>
              <ul className="mt-2 list-disc space-y-1 pl-5 break-words">
                {warningLines(result.warnings, result.rowOf).map((line, i) => (
                  <li key={i}>{line}</li>
                ))}
              </ul>
            </Alert>
          </div>
        ) : null}
        <div className="mt-6 flex flex-wrap gap-3">
          <PortalLink
            href={`/manifests/${encodeURIComponent(result.ManifestID)}`}
            className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
          >
            View manifest {result.ManifestID}
          </PortalLink>
          <Button variant="secondary" onClick={startOver}>
            Build another manifest
          </Button>
        </div>
      </Card>
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void form.handleSubmit(submit, () => void submit(form.getValues()).catch(() => undefined))(event)}
      className="space-y-6"
    >
      {draftNote ? (
        <div className="flex flex-wrap items-center gap-3">
          <Alert tone="info">{draftNote}</Alert>
        </div>
      ) : null}
      <HeaderForm form={form} />

      <section aria-labelledby="packages-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="packages-title" className="text-base font-semibold text-slate-900">
            Packages
          </h2>
          <GridToolbar store={store} />
        </div>
        <CsvImport store={store} />
        <PackageGrid store={store} />
        <Totals store={store} control={form.control} />
      </section>

      {problem ? <ProblemAlert problem={problem} ref={alertRef} /> : null}
      <ConfirmDialog
        open={untracked !== null}
        title={`${untracked?.count.toLocaleString('en-US') ?? ''} row${untracked?.count === 1 ? ' has' : 's have'} no tracking number`}
        confirmLabel="Create them anyway"
        cancelLabel="Go back"
        busy={mutation.isPending}
        onConfirm={() => {
          if (untracked) void send(untracked.body, untracked.rowOf).finally(() => setSubmits((n) => n + 1));
        }}
        onClose={() => setUntracked(null)}
      >
        {untracked?.count === 1 ? 'It' : 'They'} will get only a carrier barcode: the shipper&apos;s own number will not be on the
        label, and {untracked?.count === 1 ? 'it' : 'they'} can be found by the barcode alone. Rows without a tracking number are
        marked in the grid.
      </ConfirmDialog>
      <ErrorPanel
        ref={panelHeading}
        store={store}
        headerErrors={form.formState.errors}
        unplaced={problem?.kind === 'problems' ? problem.unplaced : []}
        onGoField={focusField}
        onGoCell={focusCell}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={mutation.isPending}>
          Create manifest
        </Button>
        <Button variant="secondary" onClick={discardDraft}>
          Discard draft
        </Button>
        <p className="text-xs text-slate-600">Drafts are saved in this browser for this account and environment.</p>
      </div>
    </form>
  );
}

/** A refused submit's message, or its conflict with a link to the manifest that holds the ContainerID. */
const ProblemAlert = forwardRef<HTMLDivElement, { problem: Problem }>(function ProblemAlert({ problem }, ref) {
  if (problem.kind === 'problems' && !problem.conflict) {
    return problem.error ? <RequestLink error={problem.error} className="block text-xs text-slate-700" /> : null;
  }
  return (
    <div ref={ref} tabIndex={-1}>
      <Alert tone="danger">
        {problem.kind === 'message' ? (
          problem.text
        ) : problem.conflict ? (
          <p className="font-medium">
            Conflict: {problem.conflict.message}{' '}
            {problem.conflict.existing ? (
              <PortalLink className="underline" href={`/manifests/${encodeURIComponent(problem.conflict.existing)}`}>
                Open {problem.conflict.existing}
              </PortalLink>
            ) : null}
          </p>
        ) : null}
        <RequestLink error={problem.error} />
      </Alert>
    </div>
  );
});

function GridToolbar({ store }: { store: GridStore }) {
  const activeRow = useSyncExternalStore(
    store.subscribe,
    () => store.active.row,
    () => 0,
  );
  const canUndo = useSyncExternalStore(
    store.subscribe,
    () => store.canUndo,
    () => false,
  );
  const canRedo = useSyncExternalStore(
    store.subscribe,
    () => store.canRedo,
    () => false,
  );
  const [note, setNote] = useState('');
  const act = (fn: () => void) => () => {
    store.setFocusInGrid(true);
    fn();
    requestAnimationFrame(() => document.getElementById(cellId('packages', store.active.row, store.active.col))?.focus());
  };
  return (
    <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Package rows">
      <Button size="sm" variant="secondary" onClick={act(() => store.addRows(1))}>
        Add row
      </Button>
      <Button size="sm" variant="secondary" onClick={act(() => store.duplicateRow(store.active.row))}>
        Duplicate selected row
      </Button>
      <Button
        size="sm"
        variant="secondary"
        onClick={act(() => {
          const row = store.active.row;
          store.removeRow(row);
          setNote(`Row ${row + 1} removed; Undo brings it back.`);
        })}
      >
        Remove selected row
      </Button>
      <Button
        size="sm"
        variant="secondary"
        aria-keyshortcuts="Control+Z"
        disabled={!canUndo}
        onClick={act(() => {
          store.undo();
          setNote('');
        })}
      >
        Undo
      </Button>
      <Button
        size="sm"
        variant="secondary"
        aria-keyshortcuts="Control+Y"
        disabled={!canRedo}
        onClick={act(() => {
          store.redo();
          setNote('');
        })}
      >
        Redo
      </Button>
      <span className="self-center text-xs text-slate-600" aria-live="polite">
        {note || `Row ${activeRow + 1} selected`}
      </span>
    </div>
  );
}

function Totals({ store, control }: { store: GridStore; control: Control<HeaderValues> }) {
  const rows = useSyncExternalStore(
    store.subscribe,
    () => store.rows,
    () => store.rows,
  );
  const containerWeight = useWatch({ control, name: 'ContainerWeight' });
  const [summary, setSummary] = useState(() => store.summary());
  // Summing 5,000 rows per keystroke is cheap, but it need not block the keystroke itself.
  useEffect(() => {
    const handle = setTimeout(() => setSummary(store.summary()), 120);
    return () => clearTimeout(handle);
  }, [rows, store]);
  const limit = Number(containerWeight);
  const over = containerWeight && Number.isFinite(limit) && summary.weightLb > limit;
  return (
    <div className="space-y-2">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="totals">
        <div className="flex gap-1">
          <dt className="text-slate-600">Packages</dt>
          <dd className="font-semibold tabular-nums text-slate-900" data-testid="total-packages">
            {summary.packages.toLocaleString()}
          </dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-slate-600">Total weight</dt>
          <dd className="font-semibold tabular-nums text-slate-900" data-testid="total-weight">
            {summary.weightLb.toLocaleString(undefined, { maximumFractionDigits: 3 })} lb
          </dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-slate-600">Container weight</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{containerWeight ? `${containerWeight} lb` : 'not given'}</dd>
        </div>
        {summary.withoutWeight ? (
          <div className="flex gap-1">
            <dt className="text-slate-600">Without a weight</dt>
            <dd className="font-semibold tabular-nums text-slate-900">{summary.withoutWeight.toLocaleString()}</dd>
          </div>
        ) : null}
      </dl>
      {over ? (
        <Alert tone="warning">
          The packages weigh {summary.weightLb.toLocaleString(undefined, { maximumFractionDigits: 3 })} lb, more than the
          container weight of {containerWeight} lb (which includes them). Check the weights and units.
        </Alert>
      ) : null}
      <p className="text-xs text-slate-600">
        Weights are converted to lb (1 kg = 2.20462 lb, 16 oz = 1 lb); a weight without a unit counts as lb.
      </p>
    </div>
  );
}
