'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { isBlankRow, type GridStore, type RowValues } from './grid-store';
import { HEADER_FIELDS, emptyHeader, type HeaderValues } from './header-fields';

// The builder's draft in localStorage, one per account and environment: restored on mount, saved
// (debounced) on every header or grid change until the manifest is submitted or the draft discarded.

export interface Draft {
  v: 1;
  savedAt: string;
  header: Partial<HeaderValues>;
  rows: RowValues[];
}

export const DRAFT_DELAY_MS = 500;

export function draftKey(accountId: string, environment: string) {
  return `carrier.manifest-draft.v1.${accountId}.${environment}`;
}

/** What to store for this header and these rows: null when there is nothing worth keeping. */
export function draftToSave(header: Partial<HeaderValues>, values: readonly RowValues[], now: Date): Draft | null {
  let end = values.length;
  while (end > 0 && isBlankRow(values[end - 1])) end--;
  const empty = end === 0 && HEADER_FIELDS.every((f) => !header[f]?.trim());
  if (empty) return null;
  return { v: 1, savedAt: now.toISOString(), header: { ...header }, rows: values.slice(0, end) };
}

export function useManifestDraft(key: string, store: GridStore, form: UseFormReturn<HeaderValues>) {
  const [draftNote, setDraftNote] = useState<string | null>(null);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    try {
      const saved = localStorage.getItem(key);
      if (saved) {
        const draft = JSON.parse(saved) as Draft;
        form.reset({ ...emptyHeader(), ...draft.header });
        if (draft.rows?.length) store.replaceRows(draft.rows, { undoable: false });
        // localStorage is only readable after hydration, so the note can only be set here.
        // eslint-disable-next-line react-hooks/set-state-in-effect
        setDraftNote(`Draft restored (saved ${new Date(draft.savedAt).toLocaleString()}).`);
      }
    } catch {
      localStorage.removeItem(key);
    }
    const save = () => {
      clearTimeout(saveTimer.current);
      saveTimer.current = setTimeout(() => {
        const draft = draftToSave(form.getValues(), store.values(), new Date());
        try {
          if (draft) localStorage.setItem(key, JSON.stringify(draft));
          else localStorage.removeItem(key);
        } catch {
          setDraftNote('This draft is too large to keep in the browser; submit it or export your data before leaving.');
        }
      }, DRAFT_DELAY_MS);
    };
    const unsubscribeGrid = store.subscribe(save);
    const { unsubscribe } = form.watch(save);
    return () => {
      clearTimeout(saveTimer.current);
      unsubscribeGrid();
      unsubscribe();
    };
  }, [key, store, form]);

  /** Forgets the stored draft and any save still pending (after a submit, a discard, a fresh start). */
  const clearDraft = useCallback(() => {
    clearTimeout(saveTimer.current);
    localStorage.removeItem(key);
  }, [key]);

  return { draftNote, setDraftNote, clearDraft };
}
