import { useId } from 'react';
import { cx } from '../../../lib/cx';
import type { HeadshotVersion } from '../api/get-versions';
import { EDIT_TEXT, describeEdit, versionName } from '../utils/edit-options';

/** Props of {@link VersionsStrip}. */
export interface VersionsStripProps {
  /** The original's thumbnail (the headshot itself). */
  originalThumbnailUrl: string;
  /** The headshot's versions, oldest first (`GET /api/headshots/{id}/versions`). */
  versions: readonly HeadshotVersion[];
  /** The selected version's id; null for the original. */
  selected: string | null;
  onSelect: (versionId: string | null) => void;
}

/** The CSS of a checkerboard: what shows through a transparent image (docs/product-spec.md §2 "Edit a headshot"). */
export const CHECKERBOARD_STYLE = {
  backgroundColor: '#ffffff',
  backgroundImage:
    'linear-gradient(45deg, #e2e8f0 25%, transparent 25%), linear-gradient(-45deg, #e2e8f0 25%, transparent 25%), linear-gradient(45deg, transparent 75%, #e2e8f0 75%), linear-gradient(-45deg, transparent 75%, #e2e8f0 75%)',
  backgroundSize: '16px 16px',
  backgroundPosition: '0 0, 0 8px, 8px -8px, -8px 0',
} as const;

/**
 * 'Versions' under the viewer's image (docs/product-spec.md §2 "Edit a headshot"): 'Original', 'v1', 'v2', … oldest
 * first, each a thumbnail with what it changed; the selected one is pressed. Shown once the headshot has a version.
 */
export function VersionsStrip({ originalThumbnailUrl, versions, selected, onSelect }: VersionsStripProps) {
  const headingId = useId();
  if (versions.length === 0) return null;
  const entries = [
    {
      id: null,
      name: versionName(null),
      caption: EDIT_TEXT.original,
      thumbnailUrl: originalThumbnailUrl,
      transparent: false,
    },
    ...versions.map((v, i) => ({
      id: v.id,
      name: versionName(i + 1),
      caption: describeEdit(v.edit),
      thumbnailUrl: v.thumbnailUrl,
      transparent: v.transparent,
    })),
  ];
  return (
    <section aria-labelledby={headingId} className="w-full">
      <h3 id={headingId} className="text-sm font-medium text-slate-700">
        {EDIT_TEXT.versions}
      </h3>
      <ul className="mt-2 flex gap-2 overflow-x-auto pb-1" data-testid="versions-strip">
        {entries.map((entry) => {
          const pressed = entry.id === selected;
          return (
            <li key={entry.id ?? 'original'} className="shrink-0">
              <button
                type="button"
                aria-pressed={pressed}
                aria-label={entry.id === null ? entry.name : `${entry.name}: ${entry.caption}`}
                onClick={() => onSelect(entry.id)}
                className={cx(
                  'flex w-20 flex-col items-center gap-1 rounded-xl p-1 text-xs ring-1 transition focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none',
                  pressed ? 'bg-brand-50 ring-brand-600' : 'ring-slate-200 hover:bg-slate-50',
                )}
              >
                <span
                  className="block size-16 overflow-hidden rounded-lg"
                  style={entry.transparent ? CHECKERBOARD_STYLE : undefined}
                >
                  <img src={entry.thumbnailUrl} alt="" className="size-full object-cover" />
                </span>
                <span className="font-semibold text-slate-900">{entry.name}</span>
                <span
                  className="line-clamp-2 text-center text-[11px] leading-tight text-slate-600"
                  aria-hidden="true"
                >
                  {entry.id === null ? '' : entry.caption}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
