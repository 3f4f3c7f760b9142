'use client';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Pager, useKeysetPages, type useUrlFilters } from '@/components/ui';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import { usePortalEnvironment } from './portal-context';

// A keyset-paged list of the portal (manifests, packages, the request log, the audit log): its filters and page in
// the URL, one query for the page in the selected environment, a download link for what the filters select, and
// the footer that pages it. Every list answers the API's list shape.

interface KeysetPage {
  data: unknown[];
  has_more: boolean;
  next_cursor: string | null;
}

type Filters<K extends string> = ReturnType<typeof useUrlFilters<K>>;

/** The page `path` answers for the URL's filters and cursor, `pageSize` rows at most; and the paging around it. */
export function useKeysetList<T extends KeysetPage, K extends string>(
  filters: Filters<K>,
  options: { key: string; path: string; pageSize: number },
) {
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const pages = useKeysetPages(filters);
  const pageQuery = (query: URLSearchParams) => ({
    queryKey: portal.key(options.key, query.toString()),
    queryFn: ({ signal }: { signal: AbortSignal }) => portal.fetch<T>(`${options.path}?${query}`, { signal }),
  });
  const query = filters.query();
  query.set('limit', String(options.pageSize));
  if (pages.cursor) query.set('cursor', pages.cursor);
  const list = useQuery({ ...pageQuery(query), placeholderData: keepPreviousData });
  return {
    ...pages,
    list,
    // The URL's change reaches the list a render later (a transition, then the effect that subscribes the new key);
    // a search typed as you go asks for its first page at once, and the list finds that request under the same key.
    prefetchFirstPage: (next: Parameters<Filters<K>['queryOf']>[0]) => {
      const first = filters.queryOf(next);
      first.set('limit', String(options.pageSize));
      void queryClient.prefetchQuery(pageQuery(first));
    },
  };
}

/** A link that downloads what the filters select from `path`: a link cannot send a header, so the environment is in its query. */
export function useExportHref<K extends string>(filters: Filters<K>, path: string): string {
  const portal = usePortalEnvironment();
  const query = filters.query();
  query.set(ENVIRONMENT_QUERY, portal.environment);
  return `${path}?${query}`;
}

/** The footer of a keyset-paged list: `summary`, First page (past the first), Previous and Next. */
export function KeysetPager({
  summary,
  page,
  pages,
}: {
  summary: string;
  page: KeysetPage;
  pages: Pick<ReturnType<typeof useKeysetPages>, 'cursor' | 'firstPage' | 'hasPrevious' | 'previousPage' | 'nextPage'>;
}) {
  return (
    <Pager
      summary={summary}
      extra={
        pages.cursor ? (
          <Button size="sm" variant="ghost" onClick={pages.firstPage}>
            First page
          </Button>
        ) : null
      }
      hasPrevious={pages.hasPrevious}
      onPrevious={pages.previousPage}
      hasNext={page.has_more && !!page.next_cursor}
      onNext={() => page.next_cursor && pages.nextPage(page.next_cursor)}
    />
  );
}
