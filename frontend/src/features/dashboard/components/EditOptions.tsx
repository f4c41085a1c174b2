import type { ReactNode } from 'react';
import { cx } from '../../../lib/cx';
import type { EditChoice } from '../utils/edit-options';

/** Props of {@link ChoiceGroup}. */
export interface ChoiceGroupProps<Id extends string> {
  /** The group's name (the radios'), and its accessible name when no legend shows. */
  name: string;
  legend: string;
  /** Show the legend (the kinds' own group hides it: the sheet's title names it). */
  showLegend?: boolean;
  choices: readonly EditChoice<Id>[];
  value: Id | null;
  onChange: (id: Id) => void;
  /** Extra choices after these (the background's custom colour and transparent). */
  children?: ReactNode;
  /** Lay the choices out as a row of chips (the kinds) rather than a list of cards. */
  chips?: boolean;
}

/**
 * One choice of several, as native radio buttons (arrow keys move between them on a desktop; each is a large target
 * on a phone), styled as cards with the choice's hint under its label.
 */
export function ChoiceGroup<Id extends string>({
  name,
  legend,
  showLegend = true,
  choices,
  value,
  onChange,
  children,
  chips = false,
}: ChoiceGroupProps<Id>) {
  return (
    <fieldset className="min-w-0">
      <legend className={showLegend ? 'mb-2 text-sm font-medium text-slate-700' : 'sr-only'}>{legend}</legend>
      <div className={chips ? 'flex flex-wrap gap-2' : 'grid gap-2 sm:grid-cols-2'}>
        {choices.map((choice) => (
          <ChoiceCard
            key={choice.id}
            name={name}
            label={choice.label}
            hint={choice.hint}
            checked={value === choice.id}
            onSelect={() => onChange(choice.id)}
            chip={chips}
          />
        ))}
        {children}
      </div>
    </fieldset>
  );
}

/** Props of {@link ChoiceCard}. */
export interface ChoiceCardProps {
  name: string;
  label: string;
  hint?: string;
  checked: boolean;
  onSelect: () => void;
  chip?: boolean;
  children?: ReactNode;
}

/** One radio of a {@link ChoiceGroup}: the whole card is its label, so a tap anywhere on it chooses it. */
export function ChoiceCard({
  name,
  label,
  hint,
  checked,
  onSelect,
  chip = false,
  children,
}: ChoiceCardProps) {
  return (
    <label
      className={cx(
        'flex cursor-pointer gap-2 rounded-2xl text-sm ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600',
        chip ? 'items-center px-3 py-2' : 'items-start px-3 py-2.5',
        checked ? 'bg-brand-50 ring-brand-600' : 'bg-white ring-slate-200 hover:bg-slate-50',
      )}
    >
      <input
        type="radio"
        name={name}
        checked={checked}
        onChange={onSelect}
        className={chip ? 'sr-only' : 'mt-0.5 size-4 shrink-0 accent-brand-600'}
      />
      <span className="min-w-0">
        <span className="font-medium text-slate-900">{label}</span>
        {hint && <span className="block text-xs text-slate-600">{hint}</span>}
        {children}
      </span>
    </label>
  );
}
