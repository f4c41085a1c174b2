import { useMutation } from '@tanstack/react-query';
import { Palette, Plus, X } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { teamLookSchema, type Team, type TeamLookBody } from '../../../../../functions/contracts/teams';
import { HEX_COLOUR } from '../../../../../functions/domain/edits';
import { MAX_LOOK_COLOURS } from '../../../../../functions/domain/team-look';
import { OUTFITS } from '../../../../../functions/domain/outfits';
import { BACKGROUNDS, STYLES } from '../../../../../functions/domain/styles';
import { Button } from '../../../components/ui/Button';
import type { ApiError } from '../../../lib/api-client';
import { cx } from '../../../lib/cx';
import { updateTeam, useRefreshTeam } from '../api/team-writes';
import {
  BACKGROUND_LABELS,
  coloursOf,
  OUTFIT_LABELS,
  sameLook,
  STYLE_LABELS,
  toggled,
  toggledPreset,
  withColour,
  withoutColour,
} from '../utils/look';
import { LOOK_TEXT } from '../utils/text';
import { Panel } from './TeamLayout';

/**
 * 'Brand look' of a team's page (docs/product-spec.md §2 "Teams", docs/teams.md "The brand look"): the styles,
 * backgrounds (the presets and up to three custom colours) and outfits members may generate with; one of each
 * locks it. Checked with the route's own schema before 'Save look' sends it.
 */
export function LookPanel({ team }: { team: Team }) {
  // A new look from the server (saved here or in another tab) starts the editor again.
  return <LookEditor key={JSON.stringify(team.look)} team={team} />;
}

function LookEditor({ team }: { team: Team }) {
  const refresh = useRefreshTeam(team.teamId);
  const [look, setLook] = useState<TeamLookBody>(team.look);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (next: TeamLookBody) => updateTeam(team.teamId, { look: next }),
    onSuccess: async () => {
      toast.success(LOOK_TEXT.saved);
      await refresh();
    },
    onError: (error: ApiError) => setProblem(error.message),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = teamLookSchema.safeParse(look);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? LOOK_TEXT.save);
      return;
    }
    setProblem(null);
    save.mutate(parsed.data);
  };

  return (
    <Panel id="team-look" icon={Palette} title={LOOK_TEXT.heading}>
      <form onSubmit={submit}>
        <p className="mt-2 text-sm text-slate-600">{LOOK_TEXT.intro}</p>
        <ChipGroup legend={LOOK_TEXT.styles}>
          {STYLES.map((style) => (
            <Chip
              key={style}
              label={STYLE_LABELS[style]}
              checked={look.styles.includes(style)}
              onChange={() => setLook({ ...look, styles: toggled(look.styles, style, STYLES) })}
            />
          ))}
        </ChipGroup>
        <BackgroundChoices look={look} onChange={setLook} />
        <ChipGroup legend={LOOK_TEXT.outfits}>
          {OUTFITS.map((outfit) => (
            <Chip
              key={outfit}
              label={OUTFIT_LABELS[outfit]}
              checked={look.outfits.includes(outfit)}
              onChange={() => setLook({ ...look, outfits: toggled(look.outfits, outfit, OUTFITS) })}
            />
          ))}
        </ChipGroup>
        {problem && (
          <p role="alert" className="mt-4 text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
        <Button type="submit" className="mt-5" loading={save.isPending} disabled={sameLook(look, team.look)}>
          {LOOK_TEXT.save}
        </Button>
      </form>
    </Panel>
  );
}

/** 'Backgrounds': the four presets, the custom colours (each removable) and 'Custom colour' to add one, up to 3. */
function BackgroundChoices({
  look,
  onChange,
}: {
  look: TeamLookBody;
  onChange: (look: TeamLookBody) => void;
}) {
  const presets = look.backgrounds.flatMap((b) => (b.type === 'preset' ? [b.background] : []));
  const setLook = onChange;
  return (
    <>
      <ChipGroup legend={LOOK_TEXT.backgrounds}>
        {BACKGROUNDS.map((background) => (
          <Chip
            key={background}
            label={BACKGROUND_LABELS[background]}
            checked={presets.includes(background)}
            onChange={() => setLook(toggledPreset(look, background, BACKGROUNDS))}
          />
        ))}
        {coloursOf(look).map((colour) => (
          <span
            key={colour}
            data-testid="look-colour"
            className="inline-flex items-center gap-2 rounded-full bg-brand-600 py-1 pr-1 pl-3 text-sm font-medium text-white"
          >
            <span
              aria-hidden="true"
              className="size-4 rounded-full ring-2 ring-white"
              style={{ background: colour }}
            />
            <span className="font-mono">{colour}</span>
            <button
              type="button"
              onClick={() => setLook(withoutColour(look, colour))}
              className="inline-flex size-8 items-center justify-center rounded-full hover:bg-brand-700"
            >
              <X aria-hidden="true" className="size-4" />
              <span className="sr-only">{LOOK_TEXT.removeColour(colour)}</span>
            </button>
          </span>
        ))}
      </ChipGroup>
      {coloursOf(look).length < MAX_LOOK_COLOURS && (
        <AddColour
          onAdd={(colour) => {
            const next = withColour(look, colour);
            if (next) setLook(next);
            return next !== null;
          }}
        />
      )}
    </>
  );
}

function ChipGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="mt-5">
      <legend className="text-sm font-semibold text-slate-900">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-2">{children}</div>
    </fieldset>
  );
}

/** A checkbox drawn as a chip: 44 px high, filled when chosen. */
function Chip({ label, checked, onChange }: { label: string; checked: boolean; onChange: () => void }) {
  return (
    <label
      className={cx(
        'inline-flex min-h-11 cursor-pointer items-center rounded-full px-4 text-sm font-medium transition',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
        checked
          ? 'bg-brand-600 text-white shadow-sm'
          : 'bg-white text-slate-700 ring-1 ring-slate-300 hover:ring-slate-400',
      )}
    >
      <input type="checkbox" checked={checked} onChange={onChange} className="sr-only" />
      {label}
    </label>
  );
}

/** 'Custom colour': a colour picker and its `#rrggbb` field, and 'Add colour'. */
function AddColour({ onAdd }: { onAdd: (colour: string) => boolean }) {
  const id = useId();
  const [colour, setColour] = useState('#1f6feb');
  const valid = HEX_COLOUR.test(colour);
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {LOOK_TEXT.customColour}
      </label>
      <input
        type="color"
        aria-label={LOOK_TEXT.colourPicker}
        value={valid ? colour.toLowerCase() : '#000000'}
        onChange={(event) => setColour(event.target.value)}
        className="h-11 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white"
      />
      <input
        id={id}
        value={colour}
        onChange={(event) => setColour(event.target.value.trim())}
        aria-invalid={!valid}
        spellCheck={false}
        className="h-11 w-28 rounded-xl border border-slate-300 bg-white px-3 font-mono text-base text-slate-900 shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600 sm:text-sm"
      />
      <Button variant="secondary" disabled={!valid} onClick={() => onAdd(colour)}>
        <Plus aria-hidden="true" className="size-4" />
        {LOOK_TEXT.addColour}
      </Button>
    </div>
  );
}
