'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import { ErrorState, LoadingBlock } from '@/components/ui';

/** One setting read by the portal: its API path under /portal-api/settings and the query key its form writes back. */
export type SettingSource = { path: string; queryKey: readonly unknown[] };

function useSettingSource(name: string): SettingSource {
  const portal = usePortalEnvironment();
  return { path: `/portal-api/settings/${name}`, queryKey: portal.key('settings', name) };
}

/**
 * Loads one setting and renders its form once it is there: the loading block and the retryable error are the
 * same on every settings card, so a form only ever sees a loaded value.
 */
export function SettingLoader<T>({
  name,
  what,
  rows = 2,
  children,
}: {
  name: string;
  /** Said in "Loading …" and "Could not load …": "the customs setting". */
  what: string;
  rows?: number;
  children: (initial: T, source: SettingSource) => ReactNode;
}) {
  const portal = usePortalEnvironment();
  const source = useSettingSource(name);
  const current = useQuery({
    queryKey: source.queryKey,
    queryFn: ({ signal }) => portal.fetch<T>(source.path, { signal }),
  });
  if (current.isPending) return <LoadingBlock label={`Loading ${what}…`} rows={rows} />;
  if (current.isError)
    return <ErrorState title={`Could not load ${what}`} error={current.error} onRetry={() => void current.refetch()} />;
  return children(current.data, source);
}

/** Saves a setting with PUT and puts the server's answer in the cache, so every reader of it shows what was stored. */
export function useSaveSetting<TBody, T>(source: SettingSource, onSaved?: (data: T) => void) {
  const portal = usePortalEnvironment();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => portal.fetch<T>(source.path, { method: 'PUT', body }),
    onSuccess: (data) => {
      client.setQueryData(source.queryKey, data);
      onSaved?.(data);
    },
  });
}
