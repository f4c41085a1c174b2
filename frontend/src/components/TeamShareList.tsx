import { Check } from 'lucide-react';
import { Button } from './ui/Button';
import { Spinner } from './ui/Spinner';

/**
 * 'Share with {team}' as a primary button whose words wrap: a long team name fits a phone's half-width card (the
 * shared button style keeps its label on one line).
 */
const SHARE_BUTTON =
  'mt-auto inline-flex min-h-10 w-full items-center justify-center gap-1.5 rounded-2xl bg-brand-600 px-2 py-1.5 ' +
  'text-center text-sm leading-tight font-semibold text-white shadow-sm transition hover:bg-brand-700 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ' +
  'disabled:cursor-not-allowed disabled:opacity-60';

/** The texts of sharing with a team (docs/product-spec.md §2 "Teams", a member's page and the wizard's results). */
export const TEAM_SHARE_TEXT = {
  share: (team: string) => `Share with ${team}`,
  shared: 'Shared',
  unshare: 'Stop sharing',
  privacy: 'Your team sees only the headshots you share.',
  pickOne: (team: string) =>
    `Share at least one headshot with ${team}: it is how your team gets your headshot.`,
} as const;

/** One of the member's team headshots. */
export interface ShareableHeadshot {
  id: string;
  thumbnailUrl: string;
  /** What the image shows, for screen readers ('Headshot 2, professional, office'). */
  label: string;
}

/** Props of {@link TeamShareList}. */
export interface TeamShareListProps {
  teamName: string;
  headshots: readonly ShareableHeadshot[];
  sharedIds: ReadonlySet<string>;
  /** The headshot being shared or unshared: its button spins, the others wait. */
  busyId: string | null;
  onShare: (id: string) => void;
  onUnshare: (id: string) => void;
}

/**
 * A member's own team headshots, each with 'Share with {team}' or, once shared, 'Shared' and 'Stop sharing'
 * (docs/product-spec.md §2 "Teams"); while none is shared it asks for at least one, and it says the team sees only
 * what is shared. Used on the member's team page and under the wizard's results of a team generation.
 */
export function TeamShareList({
  teamName,
  headshots,
  sharedIds,
  busyId,
  onShare,
  onUnshare,
}: TeamShareListProps) {
  const none = !headshots.some((h) => sharedIds.has(h.id));
  return (
    <div>
      <p className="text-sm text-slate-600">{TEAM_SHARE_TEXT.privacy}</p>
      {none && headshots.length > 0 && (
        <p className="mt-2 text-sm font-medium text-amber-900">{TEAM_SHARE_TEXT.pickOne(teamName)}</p>
      )}
      <ul
        className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-6"
        data-testid="team-shares"
      >
        {headshots.map((headshot) => {
          const shared = sharedIds.has(headshot.id);
          const busy = busyId === headshot.id;
          return (
            <li
              key={headshot.id}
              data-testid="shareable-headshot"
              data-shared={shared || undefined}
              className="flex flex-col overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200"
            >
              <img
                src={headshot.thumbnailUrl}
                alt={headshot.label}
                width={512}
                height={512}
                className="aspect-square w-full object-cover"
              />
              <div className="flex flex-1 flex-col gap-2 p-2">
                {shared ? (
                  <>
                    <span className="inline-flex items-center gap-1 self-start rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                      <Check aria-hidden="true" className="size-3.5" />
                      {TEAM_SHARE_TEXT.shared}
                    </span>
                    <Button
                      variant="secondary"
                      size="sm"
                      loading={busy}
                      disabled={busyId !== null}
                      aria-label={`${TEAM_SHARE_TEXT.unshare}: ${headshot.label}`}
                      onClick={() => onUnshare(headshot.id)}
                      className="h-10 w-full px-2"
                    >
                      {TEAM_SHARE_TEXT.unshare}
                    </Button>
                  </>
                ) : (
                  <button
                    type="button"
                    disabled={busyId !== null}
                    aria-busy={busy || undefined}
                    aria-label={`${TEAM_SHARE_TEXT.share(teamName)}: ${headshot.label}`}
                    onClick={() => onShare(headshot.id)}
                    className={SHARE_BUTTON}
                  >
                    {busy && <Spinner size="sm" label={null} />}
                    <span className="min-w-0 break-words">{TEAM_SHARE_TEXT.share(teamName)}</span>
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
