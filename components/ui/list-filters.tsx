'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from './button';
import { EmptyState } from './states';
import { cn } from './cn';

type Filters<K extends string> = Record<K, string>;

function filtersOf<K extends string>(keys: readonly K[], params: URLSearchParams): Filters<K> {
  return Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Filters<K>;
}

/** The non-empty filters, trimmed, as a query string (the API's and the page URL's alike). */
function filterQuery<K extends string>(keys: readonly K[], filters: Filters<K>): URLSearchParams {
  const query = new URLSearchParams();
  for (const k of keys) if (filters[k].trim()) query.set(k, filters[k].trim());
  return query;
}

/**
 * A list's filters kept in the page URL (bookmarkable, Back works): what is applied, the form being edited,
 * and navigation that writes filters plus the list's own paging parameters. `history` says whether a new
 * filter or page is a history entry (`push`) or replaces the current one. `range` names a pair of day
 * filters (YYYY-MM-DD): a To before the From is explained on the To field (`errorOf`) and not applied,
 * rather than showing an empty list.
 */
export function useUrlFilters<K extends string>(
  keys: readonly K[],
  { history, range }: { history: 'push' | 'replace'; range?: { from: K; to: K; fromLabel: string } },
) {
  const params = useSearchParams();
  const pathname = usePathname();
  const applied = filtersOf(keys, params);
  const [form, setForm] = useState<Filters<K>>(applied);
  // Back, Forward and links change the URL's filters under the form: the form follows (React's "adjust state on a prop change").
  const appliedKey = filterQuery(keys, applied).toString();
  const [shown, setShown] = useState(appliedKey);
  if (shown !== appliedKey) {
    setShown(appliedKey);
    setForm(applied);
  }

  // `as`: a search typed a letter at a time replaces the entry instead of adding one per pause. The lists read their
  // filters on the client, so the URL changes through the History API, which Next keeps useSearchParams in step with:
  // router.push would first fetch the page's server payload, a round trip the list then waited for.
  function navigate(filters: Filters<K>, page: Record<string, string | undefined> = {}, as = history) {
    const next = filterQuery(keys, filters);
    for (const [name, value] of Object.entries(page)) if (value) next.set(name, value);
    const url = `${pathname}${next.size ? `?${next}` : ''}`;
    if (as === 'push') window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  }

  // Days as YYYY-MM-DD compare as text.
  const rangeError =
    range && form[range.from] && form[range.to] && form[range.to] < form[range.from]
      ? `must be on or after the ${range.fromLabel} date (${form[range.from]})`
      : undefined;

  return {
    params,
    applied,
    form,
    /** The message for a filter's field, if its value cannot be applied. */
    errorOf: (key: K): string | undefined => (range && key === range.to ? rangeError : undefined),
    filtered: keys.some((k) => applied[k]),
    /** The applied filters as query parameters, to add paging or the environment to. */
    query: () => filterQuery(keys, applied),
    /** Other filters as the same query parameters (what `query` will give once they are applied). */
    queryOf: (filters: Filters<K>) => filterQuery(keys, filters),
    /** A control's value and onChange for one filter. */
    bind: (key: K) => ({
      value: form[key],
      onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value })),
    }),
    navigate,
    apply: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (rangeError) {
        event.currentTarget.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
        return;
      }
      navigate(form);
    },
    clear: () => {
      const empty = Object.fromEntries(keys.map((k) => [k, ''])) as Filters<K>;
      setForm(empty);
      navigate(empty);
    },
  };
}

// Whole class names, so Tailwind sees them.
const GRID = { 4: 'lg:grid-cols-4', 6: 'lg:grid-cols-6' } as const;
const SPAN = { 4: 'lg:col-span-4', 6: 'lg:col-span-6' } as const;

/**
 * A list's filter form (a search landmark): `primary` (the search, always shown), the fields, then Apply, Clear filters
 * once any is applied, and `actions`. On a phone the fields and buttons fold behind a "Filters" button, so that the
 * results come first; from the `sm` width up they are always open.
 */
export function FilterBar({
  label,
  columns,
  filtered,
  onSubmit,
  onClear,
  actions,
  primary,
  children,
}: {
  label: string;
  columns: keyof typeof GRID;
  filtered: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClear: () => void;
  actions?: ReactNode;
  primary?: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const foldId = useId();
  return (
    <form
      onSubmit={onSubmit}
      role="search"
      aria-label={label}
      className={cn('grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2', GRID[columns])}
    >
      {primary}
      <div className="sm:hidden">
        <Button variant="secondary" aria-expanded={open} aria-controls={foldId} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide filters' : filtered ? 'Filters (applied)' : 'Filters'}
        </Button>
      </div>
      {/* `contents`: the fields stay items of the form's grid. */}
      <div id={foldId} className={cn('contents', !open && 'max-sm:hidden')}>
        {children}
        <div className={cn('flex flex-wrap gap-2 sm:col-span-2', SPAN[columns])}>
          <Button type="submit">Apply</Button>
          {filtered ? (
            <Button variant="secondary" onClick={onClear}>
              Clear filters
            </Button>
          ) : null}
          {actions}
        </div>
      </div>
    </form>
  );
}

/** Cursors of the pages before this one, in the URL (`back`), so Previous, reload and Back all work; the newest 20. */
const TRAIL_MAX = 20;
/** The first page in the trail (it has no cursor); never a cursor, which is longer. */
const FIRST = '0';

/**
 * A keyset-paged list's place, kept in the page URL beside its filters: this page's `cursor` and the `back` trail
 * of the pages before it, and the navigation between them.
 */
export function useKeysetPages<K extends string>(filters: ReturnType<typeof useUrlFilters<K>>) {
  const cursor = filters.params.get('cursor') ?? '';
  const trail = (filters.params.get('back') ?? '').split('.').filter(Boolean);
  return {
    cursor,
    hasPrevious: trail.length > 0,
    firstPage: () => filters.navigate(filters.applied),
    nextPage: (next: string) =>
      filters.navigate(filters.applied, { cursor: next, back: [...trail, cursor || FIRST].slice(-TRAIL_MAX).join('.') }),
    previousPage: () => {
      const before = trail[trail.length - 1];
      filters.navigate(filters.applied, { cursor: before === FIRST ? undefined : before, back: trail.slice(0, -1).join('.') });
    },
  };
}

/**
 * A filtered or paged list with nothing to show: past the last page, a way back to the first; otherwise a way to
 * clear the filters. `noun` is the list's plural ("packages").
 */
export function NothingMatches({
  noun,
  paged,
  onFirstPage,
  onClear,
}: {
  noun: string;
  paged: boolean;
  onFirstPage: () => void;
  onClear: () => void;
}) {
  return (
    <EmptyState
      title={paged ? `No more ${noun}` : `No ${noun} match these filters`}
      action={
        <Button variant="secondary" onClick={paged ? onFirstPage : onClear}>
          {paged ? 'Back to the first page' : 'Clear filters'}
        </Button>
      }
    />
  );
}
