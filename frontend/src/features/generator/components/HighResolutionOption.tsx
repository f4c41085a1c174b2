import { HIGH_RESOLUTION_TEXT } from '../utils/high-resolution';

/**
 * Step 3's high-resolution option (docs/product-spec.md §2 step 3): a switch with its price, shown before generating
 * and only when the server offers it. The server prices it again when the generation starts.
 */
export function HighResolutionOption({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="mt-4 flex cursor-pointer items-start gap-3 rounded-2xl border border-slate-200 p-3 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50">
      <input
        type="checkbox"
        role="switch"
        className="mt-0.5 size-4 shrink-0 accent-brand-600"
        checked={on}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="text-sm">
        <span className="flex flex-wrap items-baseline gap-x-2 font-semibold text-slate-900">
          {HIGH_RESOLUTION_TEXT.label}
          <span className="text-xs font-medium text-brand-700">{HIGH_RESOLUTION_TEXT.price}</span>
        </span>
        <span className="mt-0.5 block text-slate-600">{HIGH_RESOLUTION_TEXT.description}</span>
      </span>
    </label>
  );
}
