import { Button } from './Button';

/** What {@link ShowMoreButton} needs of a TanStack infinite query. */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The 'Show more' button under a paged list (purchase histories, the team gallery): shown while the query has a next
 * page, disabled while it is being fetched.
 */
export function ShowMoreButton({
  query,
  className,
  label = 'Show more',
}: {
  query: PagedQuery;
  className: string;
  /** The button's words, from the product spec. */
  label?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <Button
      variant="secondary"
      size="sm"
      className={className}
      onClick={() => void query.fetchNextPage()}
      disabled={query.isFetchingNextPage}
    >
      {label}
    </Button>
  );
}
