import { Skeleton } from '../ui/Skeleton';

/** The grid's placeholder while the packs (or the code that sells them) load. */
export function PackGridSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading credit packs"
      className="mx-auto grid max-w-md gap-8 lg:max-w-none lg:grid-cols-3 lg:gap-6"
    >
      {[0, 1, 2].map((i) => (
        <div key={i} className="rounded-3xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
          <Skeleton className="h-5 w-32" />
          <Skeleton className="mt-6 h-12 w-24" />
          <Skeleton className="mt-4 h-4 w-20" />
          <div className="mt-8 space-y-3">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
            <Skeleton className="h-4 w-4/6" />
            <Skeleton className="h-4 w-5/6" />
          </div>
          <Skeleton className="mt-8 h-11 w-full rounded-full" />
        </div>
      ))}
    </div>
  );
}
