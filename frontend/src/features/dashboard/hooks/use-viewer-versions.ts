import { useState } from 'react';
import { useVersions, type HeadshotVersion } from '../api/get-versions';
import { versionName } from '../utils/edit-options';
import { useEditProgress, type EditOutcome } from './use-edit-progress';

/** What the viewer shows of a headshot's versions and its edit: see {@link useViewerVersions}. */
export interface ViewerVersionsState {
  /** Oldest first; empty while loading or without any. */
  versions: HeadshotVersion[];
  /** The version shown, downloaded and edited next; null for the original. */
  selected: HeadshotVersion | null;
  /** Its name in the strip ('v2'); null for the original. */
  selectedName: string | null;
  select: (versionId: string | null) => void;
  /** The last edit started here, or null when none was. */
  outcome: EditOutcome | null;
  /** Follow the edit whose one-slot generation is `generationId`. */
  follow: (generationId: string) => void;
}

/**
 * A headshot's versions in the viewer and the edit being made of it (docs/product-spec.md §2 "Edit a headshot"):
 * which version is selected (a deleted one falls back to the original) and, once an edit is delivered, its version,
 * selected once when it arrives; the customer may pick another after.
 */
export function useViewerVersions(headshotId: string): ViewerVersionsState {
  const versions = useVersions(headshotId).data ?? [];
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const outcome = useEditProgress(headshotId, editing);
  const deliveredId = outcome?.state === 'delivered' ? outcome.version.id : null;
  // Set while rendering, as React advises for state that follows a change
  // (react.dev/learn/you-might-not-need-an-effect), so the new version shows in the same paint as its outcome.
  const [selectedDelivered, setSelectedDelivered] = useState<string | null>(null);
  if (deliveredId && deliveredId !== selectedDelivered) {
    setSelectedDelivered(deliveredId);
    setSelectedId(deliveredId);
  }
  const place = versions.findIndex((v) => v.id === selectedId);
  const selected = place >= 0 ? (versions[place] ?? null) : null;
  return {
    versions,
    selected,
    selectedName: selected ? versionName(place + 1) : null,
    select: setSelectedId,
    outcome,
    follow: setEditing,
  };
}
