import { ArrowDownUp } from 'lucide-react';
import { SORT_OPTIONS, type GallerySort } from '../utils/filters';

/** The gallery's order: newest first (the default) or best match (highest likeness first); a native select. */
export function SortSelect({
  value,
  onChange,
}: {
  value: GallerySort;
  onChange: (sort: GallerySort) => void;
}) {
  return (
    <label className="relative inline-flex items-center">
      <span className="sr-only">Sort headshots</span>
      <ArrowDownUp aria-hidden="true" className="pointer-events-none absolute left-3 size-4 text-slate-500" />
      <select
        value={value}
        onChange={(event) => onChange(event.target.value as GallerySort)}
        className="h-10 appearance-auto rounded-full border-0 bg-white py-0 pr-8 pl-9 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset hover:ring-slate-400"
      >
        {SORT_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
