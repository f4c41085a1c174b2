import { Check } from 'lucide-react';
import { cx } from '../../../lib/cx';
import type { WizardOption } from '../utils/content';

/** Props of {@link OptionCards}. */
export interface OptionCardsProps<Id extends string> {
  /** The radio group's name, e.g. `style`. */
  name: string;
  /** The accessible name of the group, e.g. 'Style'. */
  legend: string;
  options: readonly WizardOption<Id>[];
  value: Id | null;
  onChange: (id: Id) => void;
  /** Grid columns from `sm` (2), `lg` up: 3 for styles, 4 for backgrounds. */
  columns: 3 | 4;
}

/**
 * Cards with an example image, a title and a description, one of which is chosen: a real radio group, so arrow
 * keys move the choice and screen readers announce "1 of 3, selected". The chosen card has a brand ring and a
 * check mark; keyboard focus shows an outline around the card.
 */
export function OptionCards<Id extends string>({
  name,
  legend,
  options,
  value,
  onChange,
  columns,
}: OptionCardsProps<Id>) {
  return (
    <fieldset className="mt-8">
      <legend className="sr-only">{legend}</legend>
      <div
        className={cx('grid gap-4 sm:gap-5', columns === 3 ? 'sm:grid-cols-3' : 'grid-cols-2 lg:grid-cols-4')}
      >
        {options.map((option) => {
          const selected = option.id === value;
          const titleId = `${name}-${option.id}-title`;
          const descriptionId = `${name}-${option.id}-description`;
          return (
            <label
              key={option.id}
              className={cx(
                'group relative flex cursor-pointer flex-col overflow-hidden rounded-3xl bg-white text-left shadow-sm transition',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
                selected
                  ? 'shadow-lg ring-2 shadow-brand-600/10 ring-brand-600'
                  : 'ring-1 ring-slate-200 hover:-translate-y-0.5 hover:shadow-md hover:ring-slate-300 motion-reduce:hover:translate-y-0',
              )}
            >
              <input
                type="radio"
                name={name}
                value={option.id}
                checked={selected}
                onChange={() => onChange(option.id)}
                aria-labelledby={titleId}
                aria-describedby={descriptionId}
                className="sr-only"
              />
              <span
                className={cx(
                  'relative block overflow-hidden bg-slate-100',
                  columns === 3 ? 'aspect-[4/3] sm:aspect-[4/5]' : 'aspect-square',
                )}
              >
                {option.swatch ? (
                  <span
                    aria-hidden="true"
                    className="block size-full"
                    style={{ background: option.swatch }}
                  />
                ) : (
                  <img
                    src={option.image}
                    alt=""
                    width={384}
                    height={384}
                    decoding="async"
                    className="size-full object-cover object-[50%_20%] transition duration-500 group-hover:scale-[1.03] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
                  />
                )}
                <span
                  aria-hidden="true"
                  className={cx(
                    'absolute top-3 right-3 flex size-7 items-center justify-center rounded-full shadow-sm transition',
                    selected
                      ? 'scale-100 bg-brand-600 text-white'
                      : 'scale-90 bg-white/80 text-transparent ring-1 ring-slate-300 backdrop-blur',
                  )}
                >
                  <Check className="size-4" strokeWidth={3} />
                </span>
              </span>
              <span className="block px-4 py-3.5 sm:px-5 sm:py-4">
                <span id={titleId} className="block text-base font-semibold text-slate-900">
                  {option.title}
                </span>
                <span id={descriptionId} className="mt-0.5 block text-sm text-slate-600">
                  {option.description}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
