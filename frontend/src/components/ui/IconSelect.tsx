import type { LucideIcon } from 'lucide-react';

/** Props of {@link IconSelect}. */
export interface IconSelectProps<T extends string> {
  /** The select's accessible name (not shown). */
  label: string;
  icon: LucideIcon;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}

/**
 * A pill-shaped native select with an icon (a filter, an order): keyboard and screen readers work as everywhere
 * else, and phones show their own picker.
 */
export function IconSelect<T extends string>({
  label,
  icon: Icon,
  value,
  options,
  onChange,
}: IconSelectProps<T>) {
  return (
    <label className="relative inline-flex items-center">
      <span className="sr-only">{label}</span>
      <Icon aria-hidden="true" className="pointer-events-none absolute left-3 size-4 text-slate-500" />
      <select
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
        className="h-10 appearance-auto rounded-full border-0 bg-white py-0 pr-8 pl-9 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset hover:ring-slate-400"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
