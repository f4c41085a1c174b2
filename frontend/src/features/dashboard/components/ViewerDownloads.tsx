import { Download } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/Button';
import type { HeadshotVariant, VariantLink } from '../../../lib/api/contracts';
import { VARIANT_LABELS } from '../../../lib/download-headshot';
import type { HeadshotVersion } from '../api/get-versions';
import { downloadVersion } from '../utils/download-version';
import { EDIT_TEXT } from '../utils/edit-options';

/** Props of {@link ViewerDownloads}. */
export interface ViewerDownloadsProps {
  /** Id of the section's heading. */
  headingId: string;
  /** The files of the headshot or version shown. */
  variants: readonly VariantLink[];
  /** A transparent version: every file is a PNG with an alpha channel. */
  transparent?: boolean;
  /** The file being saved, if any (its button spins, the others wait). */
  downloading: HeadshotVariant | null;
  onDownload: (variant: HeadshotVariant) => void;
}

/**
 * 'Download for': one button per file of what the viewer shows, by use, with its pixels and format
 * (docs/product-spec.md §2 "Downloads"); the format is the file's own (a transparent version's files are all PNG:
 * 'PNG with transparency', §2 "Edit a headshot").
 */
export function ViewerDownloads({
  headingId,
  variants,
  transparent = false,
  downloading,
  onDownload,
}: ViewerDownloadsProps) {
  return (
    <section aria-labelledby={headingId} className="w-full">
      <h3 id={headingId} className="text-sm font-medium text-slate-700">
        Download for
      </h3>
      <ul className="mt-2 grid gap-2 sm:grid-cols-3">
        {variants.map((file) => (
          <li key={file.variant}>
            <Button
              variant={file.variant === 'square' ? 'primary' : 'secondary'}
              size="sm"
              className="h-auto w-full flex-col items-start gap-0 py-2 text-left"
              loading={downloading === file.variant}
              disabled={downloading !== null && downloading !== file.variant}
              aria-label={`Download ${VARIANT_LABELS[file.variant]}, ${file.width} × ${file.height} pixels`}
              onClick={() => onDownload(file.variant)}
            >
              <span className="flex items-center gap-1.5">
                {downloading !== file.variant && <Download aria-hidden="true" className="size-4" />}
                {VARIANT_LABELS[file.variant]}
              </span>
              <span className="text-xs font-normal opacity-80">
                {file.width} × {file.height} px, {formatOf(file, transparent)}
              </span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** 'PNG with transparency' for a transparent version's files, else the file's own format by its name. */
function formatOf(file: VariantLink, transparent: boolean): string {
  if (transparent) return 'PNG with transparency';
  return file.fileName.toLowerCase().endsWith('.png') ? 'PNG' : 'JPEG';
}

/** 'Download for' of a version: its files (PNG with transparency for a transparent one), saved under their names. */
export function VersionDownloads({ headingId, version }: { headingId: string; version: HeadshotVersion }) {
  const [downloading, setDownloading] = useState<HeadshotVariant | null>(null);
  const save = async (variant: HeadshotVariant) => {
    setDownloading(variant);
    try {
      await downloadVersion(version, variant);
    } catch {
      toast.error(EDIT_TEXT.downloadFailed);
    } finally {
      setDownloading(null);
    }
  };
  return (
    <ViewerDownloads
      headingId={headingId}
      variants={version.variants}
      transparent={version.transparent}
      downloading={downloading}
      onDownload={(variant) => void save(variant)}
    />
  );
}
