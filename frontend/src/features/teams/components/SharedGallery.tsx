import { Download, Images } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Team } from '../../../../../functions/contracts/teams';
import { Button } from '../../../components/ui/Button';
import { ShowMoreButton } from '../../../components/ui/ShowMoreButton';
import { fetchAllTeamHeadshots } from '../../../lib/api/team-shares';
import { captionOf } from '../../../lib/headshot-caption';
import { saveZip } from '../../../lib/zip-download';
import { useTeamGallery } from '../api/team-gallery';
import { teamZipEntries, teamZipName } from '../utils/team-zip';
import { GALLERY_TEXT } from '../utils/text';
import { Panel, Problem } from './TeamLayout';

/**
 * 'Shared headshots' of a team's page (docs/product-spec.md §2 "Teams"): what the members chose to share, each with
 * its member's e-mail, and 'Download ZIP' — every file of every shared headshot (all pages, read again when pressed
 * so the ZIP holds exactly what is shared now), a folder per member, built in the browser.
 */
export function SharedGallery({ team }: { team: Team }) {
  const gallery = useTeamGallery(team.teamId);
  const items = gallery.data?.pages.flatMap((page) => page.items) ?? [];
  const [progress, setProgress] = useState<string | null>(null);

  const download = async () => {
    setProgress(GALLERY_TEXT.preparing(0, 0));
    try {
      const shared = await fetchAllTeamHeadshots(team.teamId);
      if (shared.length === 0) return;
      await saveZip(teamZipName(team.name), teamZipEntries(shared), (done, total) =>
        setProgress(GALLERY_TEXT.preparing(done, total)),
      );
      toast.success(GALLERY_TEXT.downloaded(shared.length));
    } catch {
      toast.error(GALLERY_TEXT.failed);
    } finally {
      setProgress(null);
    }
  };

  return (
    <Panel
      id="team-gallery"
      icon={Images}
      title={GALLERY_TEXT.heading}
      action={
        <Button
          variant="secondary"
          disabled={items.length === 0 || progress !== null}
          onClick={() => void download()}
        >
          <Download aria-hidden="true" className="size-4" />
          <span aria-live="polite">{progress ?? GALLERY_TEXT.download}</span>
        </Button>
      }
    >
      {gallery.isError ? (
        <Problem message={gallery.error.message} onRetry={() => void gallery.refetch()} />
      ) : gallery.isPending ? null : items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{GALLERY_TEXT.none}</p>
      ) : (
        <ul
          aria-label={GALLERY_TEXT.heading}
          className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4"
        >
          {items.map((item) => (
            <li
              key={`${item.member.sub}/${item.headshotId}`}
              data-testid="team-headshot"
              data-member={item.member.email}
              className="overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200"
            >
              <img
                src={item.thumbnailUrl}
                alt={`${captionOf(item.style)}, ${captionOf(item.background)}. ${GALLERY_TEXT.sharedBy(item.member.email)}`}
                width={512}
                height={512}
                loading="lazy"
                className="aspect-square w-full object-cover"
              />
              <p className="truncate px-3 py-2 text-xs font-medium text-slate-700" title={item.member.email}>
                {item.member.email}
              </p>
            </li>
          ))}
        </ul>
      )}
      <ShowMoreButton query={gallery} className="mt-4" />
    </Panel>
  );
}
