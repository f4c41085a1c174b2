import { Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { cx } from '../../../lib/cx';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Button } from '../../../components/ui/Button';
import { useDeleteVersion } from '../api/delete-version';
import type { HeadshotVersion } from '../api/get-versions';
import { EDIT_TEXT } from '../utils/edit-options';
import { VersionsStrip } from './VersionsStrip';

/** Props of {@link ViewerVersions}. */
export interface ViewerVersionsProps {
  originalThumbnailUrl: string;
  versions: readonly HeadshotVersion[];
  /** The selected version and its name ('v2'); null for the original. */
  selected: HeadshotVersion | null;
  selectedName: string | null;
  select: (versionId: string | null) => void;
}

/**
 * The viewer's 'Versions': the strip, and 'Delete version' for the selected one (not the original: deleting the
 * original is deleting the headshot), asked first ('Delete v2?'); once deleted, the original is selected
 * (docs/product-spec.md §2 "Edit a headshot").
 */
export function ViewerVersions({
  originalThumbnailUrl,
  versions,
  selected,
  selectedName,
  select,
}: ViewerVersionsProps) {
  const [asking, setAsking] = useState(false);
  const remove = useDeleteVersion();
  if (versions.length === 0) return null;
  return (
    <div className="w-full">
      <VersionsStrip
        originalThumbnailUrl={originalThumbnailUrl}
        versions={versions}
        selected={selected?.id ?? null}
        onSelect={select}
      />
      {selected && (
        <DeleteButton className="mt-1" onClick={() => setAsking(true)}>
          {EDIT_TEXT.deleteVersion}
        </DeleteButton>
      )}
      {remove.error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {remove.error.message}
        </p>
      )}
      {asking && selected && (
        <ConfirmDialog
          title={`Delete ${selectedName ?? 'this version'}?`}
          confirmLabel={EDIT_TEXT.deleteVersion}
          busy={remove.isPending}
          onCancel={() => setAsking(false)}
          onConfirm={() =>
            remove.mutate(selected, {
              onSuccess: () => select(null),
              onSettled: () => setAsking(false),
            })
          }
        >
          {EDIT_TEXT.deleteVersionBody}
        </ConfirmDialog>
      )}
    </div>
  );
}

/** A quiet red button with a bin, for a deletion asked for first: the viewer's 'Delete' and 'Delete version'. */
export function DeleteButton({
  onClick,
  className,
  children,
}: {
  onClick: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      className={cx('-ml-3 text-red-700 hover:bg-red-50 hover:text-red-800', className)}
      onClick={onClick}
    >
      <Trash2 aria-hidden="true" className="size-4" />
      {children}
    </Button>
  );
}
