import { useId, useState } from 'react';
import { RegenerateReason } from '../../../components/RegenerateReason';
import { CloseButton, Modal } from '../../../components/Modal';
import { Button } from '../../../components/ui/Button';
import { useMe } from '../../../lib/api/get-me';
import type { EditRequestBody } from '../../../lib/api/contracts';
import {
  HEX_COLOUR,
  type EditKind,
  type Reframing,
  type RetouchStrength,
} from '../../../../../functions/domain/edits';
import type { Outfit } from '../../../../../functions/domain/outfits';
import type { Background } from '../../../../../functions/domain/styles';
import { editKindsFor, TEAM_EDIT_TEXT, teamEditUnavailable, useTeamPayer } from '../../../lib/team-headshot';
import { useStartEdit } from '../api/start-edit';
import {
  BACKGROUND_CHOICES,
  EDIT_KIND_LABELS,
  EDIT_TEXT,
  OUTFIT_CHOICES,
  REFRAME_CHOICES,
  RETOUCH_CHOICES,
  editUnavailable,
  type EditChoice,
} from '../utils/edit-options';
import { ChoiceCard, ChoiceGroup } from './EditOptions';

/** The background choice of the sheet: a preset, the custom colour or none. */
type BackgroundChoice = Background | 'colour' | 'transparent';

/** The kinds whose choice is one of a list (outfit, retouch strength, reframing), and the value each holds. */
interface ListChoice {
  outfit: Outfit;
  retouch: RetouchStrength;
  reframe: Reframing;
}
type ListKind = keyof ListChoice;

/** Each list kind's choices, in the sheet's order. */
const LIST_CHOICES: { [K in ListKind]: readonly EditChoice<ListChoice[K]>[] } = {
  outfit: OUTFIT_CHOICES,
  retouch: RETOUCH_CHOICES,
  reframe: REFRAME_CHOICES,
};

/** What the sheet has chosen so far, one value per kind (switching kinds keeps each kind's choice). */
export interface EditDraft {
  kind: EditKind;
  background: BackgroundChoice;
  colour: string;
  list: ListChoice;
}

const FIRST_DRAFT: EditDraft = {
  kind: 'background',
  background: 'office',
  colour: '#1f6feb',
  list: { outfit: 'suit-and-tie', retouch: 'natural', reframe: 'more-headroom' },
};

/** The API's edit for a draft, or null while it is not one (a colour that is not `#rrggbb`). */
export function editOf(draft: EditDraft): EditRequestBody | null {
  switch (draft.kind) {
    case 'background':
      if (draft.background === 'transparent')
        return { kind: 'background', background: { type: 'transparent' } };
      if (draft.background !== 'colour') {
        return { kind: 'background', background: { type: 'preset', background: draft.background } };
      }
      if (!HEX_COLOUR.test(draft.colour)) return null;
      return { kind: 'background', background: { type: 'colour', colour: draft.colour.toLowerCase() } };
    case 'outfit':
      return { kind: 'outfit', outfit: draft.list.outfit };
    case 'retouch':
      return { kind: 'retouch', strength: draft.list.retouch };
    case 'reframe':
      return { kind: 'reframe', framing: draft.list.reframe };
    case 'upscale':
      return { kind: 'upscale' };
  }
}

/** Props of {@link EditSheet}. */
export interface EditSheetProps {
  headshotId: string;
  /**
   * The team that paid the headshot (the API's `teamId`): only the edits that keep its look are offered
   * (docs/teams.md "Money"; the server refuses the others with `LOOK_LOCKED`).
   */
  teamId?: string | undefined;
  /** The version to edit (the Versions strip's selection); null edits the original. */
  versionId: string | null;
  /** That version's name in the strip ('v2'), or null for the original. */
  versionName: string | null;
  onClose: () => void;
  /** The edit started: its one-slot generation's id, to poll. */
  onStarted: (generationId: string) => void;
}

/**
 * 'Edit this headshot' (docs/product-spec.md §2 "Edit a headshot"): a sheet from the bottom of the screen on a phone,
 * a dialog on a desktop, over the viewer. One kind at a time, its choices, the cost and refund line, and 'Edit (1
 * credit)', which posts the edit and hands its generation to the viewer. Under 1 credit the button stays, disabled,
 * saying why with 'Buy credits'; the API's refusal is shown here (a toast would sit behind the dialogs).
 */
export function EditSheet({
  headshotId,
  teamId,
  versionId,
  versionName,
  onClose,
  onStarted,
}: EditSheetProps) {
  const titleId = useId();
  const reasonId = useId();
  // A team headshot's edit is paid from the member's team edits while they are one (use-cases/team-payer.ts), and
  // only keeps the look then; a former member's (the team answers 404: null) is theirs, any kind.
  const team = useTeamPayer(teamId);
  const teamPaid = team !== null;
  const kinds = editKindsFor(teamPaid ? teamId : undefined);
  const [draft, setDraft] = useState<EditDraft>({ ...FIRST_DRAFT, kind: kinds[0] ?? FIRST_DRAFT.kind });
  const set = (patch: Partial<EditDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const start = useStartEdit(onStarted);
  const credits = useMe().data?.credits;
  const unavailable = teamPaid ? (team ? teamEditUnavailable(team) : null) : editUnavailable(credits);
  const message = unavailable ?? start.error?.message ?? null;
  const edit = editOf(draft);
  const tone = unavailable ? 'note' : 'error';
  const buyCredits = !teamPaid && (unavailable !== null || start.error?.status === 402);
  const text = teamPaid ? TEAM_EDIT_TEXT : EDIT_TEXT;

  return (
    <Modal
      labelledBy={titleId}
      onClose={onClose}
      // On a phone the sheet rises from the bottom edge (full width, square bottom corners), within the thumb's reach.
      className="max-w-lg max-sm:mb-0 max-sm:min-w-full max-sm:rounded-b-none"
    >
      <form
        className="flex flex-col gap-4 p-4 sm:p-6"
        onSubmit={(event) => {
          event.preventDefault();
          if (edit && !unavailable)
            start.mutate({ headshotId, body: { edit, versionId: versionId ?? undefined } });
        }}
      >
        <div className="flex items-start justify-between gap-3">
          <div>
            <h2 id={titleId} className="text-lg font-semibold">
              {EDIT_TEXT.title}
            </h2>
            <p className="text-sm text-slate-600">
              {versionName ? `Editing ${versionName}` : 'Editing the original'}
            </p>
          </div>
          <CloseButton onClick={onClose} />
        </div>
        <ChoiceGroup
          name={`${titleId}-kind`}
          legend="What to change"
          showLegend={false}
          chips
          choices={kinds.map((id) => ({ id, label: EDIT_KIND_LABELS[id] }))}
          value={draft.kind}
          onChange={(kind) => set({ kind })}
        />
        <KindChoices draft={draft} set={set} name={titleId} />
        <p className="text-sm text-slate-600">{text.costNote}</p>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <Button
            type="submit"
            loading={start.isPending}
            disabled={unavailable !== null || edit === null}
            aria-describedby={message ? reasonId : undefined}
          >
            {text.confirm}
          </Button>
          {message && (
            <RegenerateReason id={reasonId} message={message} tone={tone} buyCredits={buyCredits} />
          )}
        </div>
      </form>
    </Modal>
  );
}

/** What each part of the sheet's choices gets: the draft, a way to change it, and the radios' name prefix. */
interface DraftProps {
  draft: EditDraft;
  set: (patch: Partial<EditDraft>) => void;
  name: string;
}

/** The choices of the chosen kind. */
function KindChoices({ draft, set, name }: DraftProps) {
  if (draft.kind === 'background') return <BackgroundChoices draft={draft} set={set} name={name} />;
  if (draft.kind === 'upscale') {
    return (
      <p className="rounded-2xl bg-slate-50 px-3 py-2.5 text-sm text-slate-700">{EDIT_TEXT.upscaleHint}</p>
    );
  }
  return <ListChoices kind={draft.kind} draft={draft} set={set} name={name} />;
}

/** The list of an outfit, retouch or reframe edit. */
function ListChoices<K extends ListKind>({ kind, draft, set, name }: DraftProps & { kind: K }) {
  return (
    <ChoiceGroup<ListChoice[K]>
      name={`${name}-${kind}`}
      legend={EDIT_KIND_LABELS[kind]}
      choices={LIST_CHOICES[kind]}
      value={draft.list[kind]}
      onChange={(id) => set({ list: { ...draft.list, [kind]: id } })}
    />
  );
}

/** The four presets, the custom colour (a picker and its `#rrggbb`) and transparent. */
function BackgroundChoices({ draft, set, name }: DraftProps) {
  const colourId = useId();
  const colourError = draft.background === 'colour' && !HEX_COLOUR.test(draft.colour);
  return (
    <ChoiceGroup<BackgroundChoice>
      name={`${name}-background`}
      legend={EDIT_KIND_LABELS.background}
      choices={BACKGROUND_CHOICES}
      value={draft.background}
      onChange={(background) => set({ background })}
    >
      <ChoiceCard
        name={`${name}-background`}
        label={EDIT_TEXT.customColour}
        checked={draft.background === 'colour'}
        onSelect={() => set({ background: 'colour' })}
      />
      <ChoiceCard
        name={`${name}-background`}
        label={EDIT_TEXT.transparent}
        hint={EDIT_TEXT.transparentHint}
        checked={draft.background === 'transparent'}
        onSelect={() => set({ background: 'transparent' })}
      />
      {draft.background === 'colour' && (
        <div className="flex flex-wrap items-center gap-2 sm:col-span-2">
          <input
            type="color"
            aria-label={EDIT_TEXT.colourPicker}
            value={HEX_COLOUR.test(draft.colour) ? draft.colour.toLowerCase() : '#000000'}
            onChange={(event) => set({ colour: event.target.value })}
            className="h-10 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white"
          />
          <label htmlFor={colourId} className="text-sm font-medium text-slate-700">
            {EDIT_TEXT.colour}
          </label>
          <input
            id={colourId}
            value={draft.colour}
            onChange={(event) => set({ colour: event.target.value.trim() })}
            aria-invalid={colourError}
            aria-describedby={colourError ? `${colourId}-error` : undefined}
            spellCheck={false}
            className="h-10 w-28 rounded-lg border border-slate-300 px-2 font-mono text-sm"
          />
          {colourError && (
            <p id={`${colourId}-error`} className="w-full text-sm text-red-700">
              {EDIT_TEXT.colourError}
            </p>
          )}
        </div>
      )}
    </ChoiceGroup>
  );
}
