import { RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { RegenerateReason } from '../../../components/RegenerateReason';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { useMe } from '../../../lib/api/get-me';
import { REGENERATE_LABEL, regenerateUnavailable, useRegenerate } from '../../../lib/api/regenerate-headshot';
import { useGeneration } from '../../../hooks/use-generation';
import { TEAM_REGENERATE_LABEL, teamEditUnavailable, useTeamPayer } from '../../../lib/team-headshot';

/**
 * "Regenerate (1 credit)" in the gallery viewer: starts a one-slot generation from this headshot and shows the new
 * one beside it once made (it also joins the gallery). Unavailable under 1 credit, saying why with a way to buy
 * more; a refusal is shown here, inside the dialog (a toast would sit behind it); a failed one is refunded. A team
 * headshot's (`teamId`) is paid from the member's team edits while they are a member (docs/teams.md "Money"):
 * 'Regenerate (1 team edit)', unavailable once those are used, with no way to buy (the team's owner buys seats).
 */
export function ViewerRegenerate({
  headshotId,
  originalUrl,
  teamId,
}: {
  headshotId: string;
  originalUrl: string;
  /** The team that paid the headshot (the API's `teamId`), if one did. */
  teamId?: string | undefined;
}) {
  const [generationId, setGenerationId] = useState<string | null>(null);
  const regenerate = useRegenerate((_id, started) => setGenerationId(started), { inline: true });
  const { data } = useGeneration(generationId);
  const credits = useMe().data?.credits;
  const team = useTeamPayer(teamId);
  const reasonId = useId();
  const made = data?.headshots[0];

  if (!generationId) {
    const teamPaid = team !== null;
    // While the team is read (undefined) the server decides, as with an unknown balance.
    const unavailable = teamPaid ? (team ? teamEditUnavailable(team) : null) : regenerateUnavailable(credits);
    const error = regenerate.error;
    const message = unavailable ?? error?.message ?? null;
    return (
      <div className="flex w-full flex-wrap items-center gap-x-3 gap-y-2">
        <Button
          variant="secondary"
          size="sm"
          loading={regenerate.isPending}
          disabled={unavailable !== null}
          aria-describedby={message ? reasonId : undefined}
          onClick={() => regenerate.mutate(headshotId)}
        >
          {!regenerate.isPending && <RefreshCw aria-hidden="true" className="size-4" />}
          {teamPaid ? TEAM_REGENERATE_LABEL : REGENERATE_LABEL}
        </Button>
        {message && (
          <RegenerateReason
            id={reasonId}
            message={message}
            tone={unavailable ? 'note' : 'error'}
            buyCredits={!teamPaid && (unavailable !== null || error?.status === 402)}
          />
        )}
      </div>
    );
  }
  return (
    <div className="w-full" data-testid="viewer-regenerated">
      <p className="text-sm font-medium text-slate-700">
        {made
          ? 'Your new headshot, beside the original:'
          : data?.status === 'failed'
            ? ''
            : 'Creating a new headshot…'}
      </p>
      <div className="mt-2 grid grid-cols-2 gap-3">
        <img
          src={originalUrl}
          alt="The original headshot"
          className="aspect-square w-full rounded-2xl object-cover"
        />
        {made ? (
          <img
            src={made.thumbnailUrl}
            alt="The new headshot"
            className="aspect-square w-full rounded-2xl object-cover"
          />
        ) : data?.status === 'failed' ? (
          <p className="flex aspect-square items-center justify-center rounded-2xl bg-slate-100 p-4 text-center text-sm text-slate-600">
            We couldn&apos;t create it this time. Your credit has been refunded.
          </p>
        ) : (
          <div className="flex aspect-square items-center justify-center rounded-2xl bg-slate-100">
            <Spinner label="Creating a new headshot" />
          </div>
        )}
      </div>
    </div>
  );
}
