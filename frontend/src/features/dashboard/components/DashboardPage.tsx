import { AlertCircle, ArrowDownUp, ImagePlus, ListFilter, SearchX, type LucideIcon } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { Skeleton } from '../../../components/ui/Skeleton';
import { Spinner } from '../../../components/ui/Spinner';
import { useAuth } from '../../../lib/auth';
import { useMe } from '../../../lib/api/get-me';
import { HeadshotCard } from '../../../components/HeadshotCard';
import { PreviewNotice } from '../../../components/PreviewNotice';
import type { GalleryStats, Headshot, HeadshotVariant } from '../../../lib/api/contracts';
import { useToggleFavorite } from '../../../hooks/use-toggle-favorite';
import { downloadHeadshot } from '../../../lib/download-headshot';
import { useDeleteHeadshot } from '../api/delete-headshot';
import { statsOf, useGallery } from '../api/get-headshots';
import { BonusNotice } from './BonusNotice';
import { OwedCredits } from './OwedCredits';
import { DownloadAllButton } from './DownloadAll';
import { DashboardHeader } from './DashboardHeader';
import { DashboardIntro, type AccountHistory } from './DashboardIntro';
import { DeleteHeadshotDialog } from './DeleteHeadshotDialog';
import { HeadshotActions } from '../../../components/HeadshotActions';
import {
  FILTER_OPTIONS,
  filterFromSearch,
  nameFromEmail,
  searchWithFilter,
  type GalleryFilter,
  searchWithSort,
  sortFromSearch,
  SORT_OPTIONS,
  type GallerySort,
} from '../utils/filters';
import { IconSelect } from '../../../components/ui/IconSelect';
import { HeadshotViewer } from './HeadshotViewer';
import { EmailToggle } from './EmailToggle';
import { PrivacySection } from './PrivacySection';
import { PurchaseHistory } from './PurchaseHistory';
import { StatCards } from './StatCards';
import { RunningGeneration } from './RunningGeneration';
import { TeamsSection } from './TeamsSection';
import { paths } from '../../../config/paths';

/** The dashboard's texts; those of docs/product-spec.md §2 verbatim. */
export const DASHBOARD_TEXT = {
  galleryHeading: 'Your headshots',
  filterLabel: 'Filter headshots',
  emptyTitle: 'No headshots yet',
  emptyBody: 'Generate your first professional headshots with AI',
  noMatchTitle: 'No headshots match your filter',
  noMatchBody: 'Try adjusting your filter or generate new headshots',
  loadMore: 'Load more',
  loadFailed: "We couldn't load your headshots.",
  downloadFailed: "We couldn't download that headshot. Please try again.",
  deleted: 'Headshot deleted.',
  deleteFailed: "We couldn't delete that headshot. Please try again.",
} as const;

/**
 * The account's past as the greeting reads it: headshots in the gallery (whatever the filter: its counts are the
 * account's) or a generation running make it `returning`; deleted headshots leave no trace, so an account that
 * deleted them all is greeted as `new` again.
 */
function historyOf(stats: GalleryStats | undefined, running: boolean, failed: boolean): AccountHistory {
  if (running || (stats && stats.total > 0)) return 'returning';
  if (stats) return 'new';
  return failed ? 'unknown' : 'loading';
}

/** Cards shown while the first page loads: one grid row at every width, so nothing jumps. */
const SKELETON_CARDS = 8;

/**
 * `/dashboard` (docs/product-spec.md §2): the signed-in user's gallery. Header, greeting with the way to generate
 * beside it (above the fold on a phone: issue 35 item 6), the three stat cards, the filter (kept in the URL as
 * `?filter=`, so a filtered view can be linked and survives a reload), the grid of headshots — more pages load as
 * the user scrolls, with a 'Load more' button as fallback — a full-size view, deleting one headshot, then the
 * teams (issue 37), then the settings: the e-mail switch, purchases and, set apart at the foot, deleting all photos.
 */
export function DashboardPage() {
  const { user } = useAuth();
  const me = useMe();
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFromSearch(searchParams);
  const sort = sortFromSearch(searchParams);
  const gallery = useGallery(filter, sort);
  const { mutate: setFavorite } = useToggleFavorite('gallery');
  const deleteOne = useDeleteHeadshot();

  const [viewingId, setViewingId] = useState<string | null>(null);
  const [pendingDelete, setPendingDelete] = useState<Headshot | null>(null);
  const [downloading, setDownloading] = useState<{ id: string; variant: HeadshotVariant } | null>(null);

  const loaded = gallery.data && !gallery.isPlaceholderData ? gallery.data : undefined;
  const items = useMemo(() => loaded?.pages.flatMap((page) => page.items) ?? [], [loaded]);
  const stats = statsOf(gallery.data);
  const viewing = viewingId ? items.find((h) => h.id === viewingId) : undefined;
  const name = nameFromEmail(user?.email || me.data?.email);
  const history = historyOf(stats, Boolean(me.data?.activeGeneration), gallery.isError);

  const setFilter = (next: GalleryFilter) =>
    setSearchParams(searchWithFilter(searchParams, next), { replace: true, preventScrollReset: true });
  const setSort = (next: GallerySort) =>
    setSearchParams(searchWithSort(searchParams, next), { replace: true, preventScrollReset: true });

  const onToggleFavorite = useCallback(
    (headshot: Headshot) => setFavorite({ id: headshot.id, isFavorite: !headshot.isFavorite }),
    [setFavorite],
  );

  const onDownload = useCallback(async (headshot: Headshot, variant: HeadshotVariant = 'square') => {
    setDownloading({ id: headshot.id, variant });
    try {
      await downloadHeadshot(headshot, 'gallery', variant);
    } catch {
      toast.error(DASHBOARD_TEXT.downloadFailed);
    } finally {
      setDownloading(null);
    }
  }, []);

  const confirmDelete = () => {
    if (!pendingDelete) return;
    deleteOne.mutate(pendingDelete, {
      onSuccess: (_result, deleted) => {
        toast.success(DASHBOARD_TEXT.deleted);
        setPendingDelete(null);
        if (viewingId === deleted.id) setViewingId(null);
      },
      onError: () => {
        setPendingDelete(null);
        toast.error(DASHBOARD_TEXT.deleteFailed);
      },
    });
  };

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>Dashboard · Headshot Studio</title>
      <DashboardHeader />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 pt-8 pb-16 sm:px-6 sm:pt-10 lg:px-8">
        <DashboardIntro name={name} history={history} />

        {me.data && me.data.signupBonus !== 'granted' && me.data.credits === 0 && (
          <BonusNotice reason={me.data.signupBonus} />
        )}
        {me.data?.activeGeneration && <RunningGeneration active={me.data.activeGeneration} />}
        <OwedCredits owed={me.data?.creditsOwed} />
        <PreviewNotice headshots={items} className="mt-5 max-w-3xl" />

        <section aria-label="Your statistics" className="mt-6 sm:mt-8">
          <StatCards
            stats={stats}
            credits={me.data?.credits}
            creditsFailed={me.isError}
            onRetryCredits={() => void me.refetch()}
            retryingCredits={me.isFetching}
          />
        </section>

        <section aria-labelledby="gallery-heading" className="mt-10">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="gallery-heading" className="text-lg font-semibold text-slate-900 sm:text-xl">
              {DASHBOARD_TEXT.galleryHeading}
            </h2>
            <div className="flex flex-wrap items-center gap-2">
              <DownloadAllButton filter={filter} disabled={!loaded || loaded.pages[0]?.items.length === 0} />
              <IconSelect
                label={DASHBOARD_TEXT.filterLabel}
                icon={ListFilter}
                value={filter}
                options={FILTER_OPTIONS}
                onChange={setFilter}
              />
              <IconSelect
                label="Sort headshots"
                icon={ArrowDownUp}
                value={sort}
                options={SORT_OPTIONS}
                onChange={setSort}
              />
            </div>
          </div>

          <div className="mt-5">
            {gallery.isError && !loaded ? (
              <Notice
                icon={AlertCircle}
                title={DASHBOARD_TEXT.loadFailed}
                body={gallery.error.message}
                action={
                  <Button variant="secondary" onClick={() => void gallery.refetch()}>
                    Try again
                  </Button>
                }
              />
            ) : !loaded ? (
              <SkeletonGrid />
            ) : items.length === 0 ? (
              (stats?.total ?? 0) === 0 ? (
                <Notice
                  icon={ImagePlus}
                  title={DASHBOARD_TEXT.emptyTitle}
                  body={DASHBOARD_TEXT.emptyBody}
                  action={<ButtonLink to={paths.generator.href}>Generate Headshots</ButtonLink>}
                />
              ) : (
                <Notice
                  icon={SearchX}
                  title={DASHBOARD_TEXT.noMatchTitle}
                  body={DASHBOARD_TEXT.noMatchBody}
                  action={
                    <>
                      <Button variant="secondary" onClick={() => setFilter('all')}>
                        Show all headshots
                      </Button>
                      <ButtonLink to={paths.generator.href}>Generate New</ButtonLink>
                    </>
                  }
                />
              )
            ) : (
              <>
                <ul
                  aria-label={DASHBOARD_TEXT.galleryHeading}
                  className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-5 lg:grid-cols-4"
                >
                  {items.map((headshot) => (
                    <HeadshotCard
                      key={headshot.id}
                      headshot={headshot}
                      placement="gallery"
                      onOpen={(h) => setViewingId(h.id)}
                      actions={
                        <HeadshotActions
                          headshot={headshot}
                          onToggleFavorite={onToggleFavorite}
                          onDownload={onDownload}
                          onDelete={setPendingDelete}
                        />
                      }
                    />
                  ))}
                </ul>
                <MorePages
                  hasNextPage={gallery.hasNextPage}
                  isFetchingNextPage={gallery.isFetchingNextPage}
                  failed={gallery.isFetchNextPageError}
                  fetchNextPage={gallery.fetchNextPage}
                />
              </>
            )}
          </div>
        </section>

        <TeamsSection />
        <EmailToggle me={me.data} />
        <PurchaseHistory />
        <PrivacySection headshotCount={stats?.total} />
      </main>

      {viewing && (
        <HeadshotViewer
          headshot={viewing}
          onClose={() => setViewingId(null)}
          onToggleFavorite={onToggleFavorite}
          onDownload={(h, variant) => void onDownload(h, variant)}
          downloading={downloading?.id === viewing.id ? downloading.variant : null}
          onDelete={setPendingDelete}
        />
      )}
      {pendingDelete && (
        <DeleteHeadshotDialog
          headshot={pendingDelete}
          busy={deleteOne.isPending}
          onConfirm={confirmDelete}
          onCancel={() => setPendingDelete(null)}
        />
      )}
    </div>
  );
}

/**
 * Loads the next page when the user scrolls near the end of the grid (IntersectionObserver, 800 px ahead), with a
 * 'Load more' button for browsers or situations where that does not fire.
 */
function MorePages({
  hasNextPage,
  isFetchingNextPage,
  failed,
  fetchNextPage,
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  failed: boolean;
  fetchNextPage: () => Promise<unknown>;
}) {
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || isFetchingNextPage || failed) return;
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, failed, fetchNextPage]);

  if (!hasNextPage) return null;
  return (
    <div ref={sentinel} className="mt-8 flex flex-col items-center gap-2">
      {failed && <p className="text-sm text-red-700">{DASHBOARD_TEXT.loadFailed}</p>}
      {isFetchingNextPage ? (
        <Spinner className="text-brand-600" label="Loading more headshots…" />
      ) : (
        <Button variant="secondary" onClick={() => void fetchNextPage()}>
          {DASHBOARD_TEXT.loadMore}
        </Button>
      )}
    </div>
  );
}

function SkeletonGrid() {
  return (
    <div role="status" className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-5 lg:grid-cols-4">
      {Array.from({ length: SKELETON_CARDS }, (_, i) => (
        <div key={i} className="overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200">
          <Skeleton className="aspect-square w-full rounded-none" />
          <div className="flex gap-1.5 px-3 py-3">
            <Skeleton className="h-5 w-20 rounded-full" />
            <Skeleton className="h-5 w-14 rounded-full" />
          </div>
        </div>
      ))}
      <span className="sr-only">Loading your headshots…</span>
    </div>
  );
}

/** An empty or error state: an icon, a title, one line of explanation and an optional call to action. */
interface NoticeProps {
  icon: LucideIcon;
  title: string;
  body: string;
  action?: ReactNode;
}

function Notice({ icon: Icon, title, body, action }: NoticeProps) {
  return (
    <div className="flex flex-col items-center rounded-3xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center sm:py-20">
      <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <h3 className="mt-5 text-lg font-semibold text-slate-900">{title}</h3>
      <p className="mt-2 max-w-sm text-pretty text-slate-600">{body}</p>
      {action && <div className="mt-6 flex flex-wrap justify-center gap-3">{action}</div>}
    </div>
  );
}
