import { lazy, Suspense } from 'react';
import type { CreditsBadgeProps } from './CreditsBadge';
import { Skeleton } from './ui/Skeleton';

const CreditsBadge = lazy(async () => {
  const [{ CreditsBadge: Badge }, { WithQueryClient }] = await Promise.all([
    import('./CreditsBadge'),
    import('../lib/query-client'),
  ]);
  return {
    default: (props: CreditsBadgeProps) => (
      <WithQueryClient>
        <Badge {...props} />
      </WithQueryClient>
    ),
  };
});

/**
 * {@link CreditsBadge} in a chunk of its own, for the public pages (landing, pricing): it reads `GET /api/me` and
 * validates it (zod) through react-query, which a signed-out visitor never needs, so none of that is in the first
 * page's JavaScript.
 */
export function LazyCreditsBadge(props: CreditsBadgeProps) {
  return (
    <Suspense fallback={<Skeleton className="h-9 w-24 rounded-full" />}>
      <CreditsBadge {...props} />
    </Suspense>
  );
}
