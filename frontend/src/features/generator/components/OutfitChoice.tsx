import { cx } from '../../../lib/cx';
import { OUTFIT_CHOICE, type OutfitId } from '../utils/content';

/** Props of {@link OutfitChoice}. */
export interface OutfitChoiceProps {
  value: OutfitId;
  onChange: (outfit: OutfitId) => void;
  /** The outfits offered (a team's look, issue 37); default: all five. */
  options?: readonly { id: OutfitId; label: string }[];
  /** A team's look fixes the outfit: the hint says 'Set by your team'. */
  lockedNote?: string;
}

/**
 * Step 2's outfit (docs/product-spec.md §2 step 2, issue 36): a radio group of five short choices under the style
 * cards, chips that wrap on a phone rather than five more cards to scroll past. It always has a choice ('Keep my own
 * clothes' first and by default), so it never holds Continue back.
 */
export function OutfitChoice({
  value,
  onChange,
  options = OUTFIT_CHOICE.options,
  lockedNote,
}: OutfitChoiceProps) {
  const hintId = `${OUTFIT_CHOICE.id}-hint`;
  return (
    <fieldset className="mt-8" aria-describedby={hintId}>
      <legend id={OUTFIT_CHOICE.id} className="text-base font-semibold text-slate-900">
        {OUTFIT_CHOICE.title}
      </legend>
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {OUTFIT_CHOICE.hint}
        {lockedNote && <span className="ml-1 font-semibold text-brand-700">{lockedNote}.</span>}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {options.map((option) => {
          const selected = option.id === value;
          return (
            <label
              key={option.id}
              className={cx(
                'cursor-pointer rounded-full px-4 py-2.5 text-sm font-medium transition',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
                selected
                  ? 'bg-brand-600 text-white shadow-sm'
                  : 'bg-white text-slate-700 ring-1 ring-slate-200 hover:ring-slate-300',
              )}
            >
              <input
                type="radio"
                name="outfit"
                value={option.id}
                checked={selected}
                onChange={() => onChange(option.id)}
                className="sr-only"
              />
              {option.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
