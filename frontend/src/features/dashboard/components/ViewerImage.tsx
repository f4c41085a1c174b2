import { Spinner } from '../../../components/ui/Spinner';
import type { EditOutcome } from '../hooks/use-edit-progress';
import { EDIT_TEXT } from '../utils/edit-options';
import { CHECKERBOARD_STYLE } from './VersionsStrip';

/** Props of {@link ViewerImage}. */
export interface ViewerImageProps {
  /** The large image (1024 px) and the thumbnail shown, already cached, until it has loaded. */
  imageUrl: string;
  thumbnailUrl: string;
  alt: string;
  /** A transparent version: a checkerboard shows through (docs/product-spec.md §2 "Edit a headshot"). */
  transparent: boolean;
  /** The edit being made, if any: its progress over the image, or its latest partial image marked 'Preview'. */
  running: Extract<EditOutcome, { state: 'running' }> | null;
}

/**
 * The viewer's image. While an edit runs it shows 'Editing…' with the progress, and when the model streams partial
 * images the latest one in place of the image, marked 'Preview': the finished version replaces it only once
 * delivered, after the likeness check (issue 36 item 5).
 */
export function ViewerImage({ imageUrl, thumbnailUrl, alt, transparent, running }: ViewerImageProps) {
  const preview = running?.preview ?? null;
  return (
    <div className="bg-slate-100">
      <div
        className="relative mx-auto aspect-square w-full max-w-[min(100%,calc(100dvh-12rem))] bg-cover bg-center"
        style={transparent ? CHECKERBOARD_STYLE : { backgroundImage: `url("${thumbnailUrl}")` }}
      >
        {preview ? (
          <img
            key={preview.url}
            src={preview.url}
            alt={EDIT_TEXT.previewHint}
            data-testid="edit-partial-preview"
            className="size-full object-cover"
          />
        ) : (
          <img
            src={imageUrl}
            alt={alt}
            width={1024}
            height={1024}
            decoding="async"
            className="size-full object-cover"
          />
        )}
        {running && (
          <div
            role="status"
            className="absolute inset-x-3 bottom-3 flex items-center gap-2 rounded-full bg-white/90 px-3 py-1.5 text-sm font-medium text-slate-800 shadow"
          >
            {preview ? (
              <span
                className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
                data-testid="edit-preview-mark"
              >
                {EDIT_TEXT.preview}
              </span>
            ) : (
              <Spinner size="sm" label={null} />
            )}
            <span>{EDIT_TEXT.editing}</span>
            <span className="ml-auto tabular-nums text-slate-600">{Math.round(running.progress)}%</span>
          </div>
        )}
      </div>
    </div>
  );
}
