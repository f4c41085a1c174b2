import { AlertCircle, ImagePlus, Lightbulb, RotateCw, UploadCloud, X } from 'lucide-react';
import { useState } from 'react';
import { useDropzone, type DropEvent, type FileRejection } from 'react-dropzone';
import { Button } from '../../../components/ui/Button';
import { MarkedList } from '../../../components/ui/MarkedList';
import { buttonClasses } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/Spinner';
import { cx } from '../../../lib/cx';
import { GENERATOR_TEXT } from '../utils/content';
import { inChosenOrder, MAX_FILES } from '../utils/file-rules';
import { checkAsShown } from '../utils/photo-check-text';
import { StepFooter, StepHeading } from './StepLayout';
import type { PhotoCheck, PhotoCheckState } from '../hooks/use-photo-checks';
import { VerdictBadge } from './VerdictBadge';
import { DropReportList } from './DropReportList';
import type { Photo, PhotoUploads } from '../hooks/use-photo-uploads';

/** Props of {@link UploadStep}. */
export interface UploadStepProps {
  uploads: PhotoUploads;
  /** The server's checks of the stored photos (photo-checks.ts). */
  checks: PhotoCheckState;
  onContinue: () => void;
}

/** What the file picker offers: images, plus HEIC/HEIF by extension. */
const PICKER_ACCEPT = 'image/*,.heic,.heif';

/** The files of a drop or pick event, in the order the user chose them. */
function eventFiles(event: DropEvent | undefined): File[] | undefined {
  const source = event as { dataTransfer?: { files?: FileList }; target?: { files?: FileList } } | undefined;
  const list = source?.dataTransfer?.files ?? source?.target?.files;
  return list ? Array.from(list) : undefined;
}

const TIPS = [
  'Good, even lighting on your face',
  'Different angles and expressions',
  'Only you in the photo',
  'No sunglasses, hats or heavy filters',
];

const TIP_DOT = <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" />;

/**
 * Step 1 'Upload your photos' (docs/product-spec.md §2, §5): a dropzone (drag-and-drop or picker, several at once, images only)
 * with the two hints, the files a pick left out listed under it with their reasons until dismissed, the thumbnails with upload progress and a remove button, 'Uploaded photos (n/10)', and
 * Continue, enabled once a photo is stored and none is still on its way. Each stored photo shows its check's
 * verdict (an icon button: a tap shows the reasons) and the set its quality; rejected
 * photos are not used, so Continue also needs one photo that is not rejected. Photos of different people with no
 * majority (`mixed_people`) keep their warnings, and Continue waits, with the check's sentence beside it, until the
 * customer removes the photos that aren't them (issue 33).
 */
export function UploadStep({ uploads, checks, onContinue }: UploadStepProps) {
  const { photos, add, report, dismissReport, remove, retry, uploadedKeys, pendingCount } = uploads;
  const full = photos.length >= MAX_FILES;
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: { 'image/*': [] },
    multiple: true,
    // Our own rules (docs/product-spec.md §5) judge everything dropped, including what the accept filter refused (a HEIC photo
    // the browser gave no type), in the order the user chose the files.
    onDrop: (accepted: File[], rejected: FileRejection[], event?: DropEvent) =>
      add(inChosenOrder([...accepted, ...rejected.map((r) => r.file)], eventFiles(event))),
  });

  const allRejected = uploadedKeys.length > 0 && checks.usableKeys.length === 0;
  // A duplicate names the photo it copies by the tile number the customer sees.
  const tileNumber = (key: string) => {
    const i = photos.findIndex((p) => p.key === key);
    return i < 0 ? undefined : i + 1;
  };
  const shownCheck = (key: string | null | undefined) => {
    const check = key ? checks.byKey.get(key) : undefined;
    return check && checkAsShown(check, tileNumber);
  };
  const canContinue = checks.usableKeys.length > 0 && pendingCount === 0 && !checks.mixedPeople;

  return (
    <section aria-labelledby="upload-title">
      <StepHeading id="upload-title" title={GENERATOR_TEXT.uploadTitle}>
        {GENERATOR_TEXT.uploadHint}
      </StepHeading>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem] lg:gap-8">
        <div className="min-w-0">
          {/*
           * The file input sits beside the zone, not in it: a control inside a button is an interactive control
           * nested in another (axe-core `nested-interactive`). The zone's name is its visible text (drag and drop,
           * Choose photos, the formats), so what a voice user reads out is what the button answers to.
           */}
          <input
            {...getInputProps({ 'aria-label': 'Choose photos', name: 'photos', accept: PICKER_ACCEPT })}
          />
          <div
            {...getRootProps({
              role: 'button',
              className: cx(
                'group relative flex cursor-pointer flex-col items-center justify-center rounded-3xl border-2 border-dashed px-6 py-12 text-center transition sm:py-16',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
                isDragActive
                  ? 'border-brand-500 bg-brand-50'
                  : 'border-slate-300 bg-white hover:border-brand-400 hover:bg-brand-50/40',
              ),
            })}
          >
            <span
              aria-hidden="true"
              className={cx(
                'flex size-16 items-center justify-center rounded-2xl transition',
                isDragActive
                  ? 'bg-brand-600 text-white'
                  : 'bg-brand-50 text-brand-600 group-hover:bg-brand-100',
              )}
            >
              <UploadCloud className="size-8" />
            </span>
            <p className="mt-5 text-lg font-semibold text-slate-900">
              {isDragActive ? (
                'Drop your photos here'
              ) : (
                <>
                  <span className="hidden sm:inline">Drag and drop your photos here</span>
                  <span className="sm:hidden">Add photos of yourself</span>
                </>
              )}
            </p>
            <p className="mt-1 hidden text-sm text-slate-600 sm:block">or</p>
            {/* The whole zone is the button; this only looks like one (its text is part of the zone's name). */}
            <span className={buttonClasses('secondary', 'sm', 'mt-3 group-hover:ring-brand-300')}>
              <ImagePlus aria-hidden="true" className="size-4" />
              Choose photos
            </span>
            <p id="upload-formats" className="mt-5 text-sm text-slate-500">
              {GENERATOR_TEXT.uploadFormats}
            </p>
            {full && (
              <p className="mt-2 text-sm font-medium text-amber-700">
                You have 10 photos. Remove one to add another.
              </p>
            )}
          </div>
          <DropReportList report={report} onDismiss={dismissReport} />
          <div className="mt-8">
            <div className="flex items-baseline justify-between gap-3">
              <h2 className="text-base font-semibold text-slate-900" aria-live="polite">
                {GENERATOR_TEXT.uploadedCount(photos.length, MAX_FILES)}
              </h2>
              {pendingCount > 0 ? (
                <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
                  <Spinner size="sm" label={null} className="text-brand-600" />
                  Uploading {pendingCount} photo{pendingCount === 1 ? '' : 's'}…
                </p>
              ) : checks.checking ? (
                <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
                  <Spinner size="sm" label={null} className="text-brand-600" />
                  Checking your photos…
                </p>
              ) : (
                checks.quality !== null && (
                  <p
                    className="text-sm font-semibold text-slate-700"
                    role="status"
                    data-testid="photo-set-quality"
                  >
                    Photo set quality: {checks.quality}%
                  </p>
                )
              )}
            </div>
            {photos.length === 0 ? (
              <p className="mt-3 rounded-2xl border border-dashed border-slate-200 bg-white/60 px-4 py-6 text-center text-sm text-slate-500">
                No photos yet. Your photos will appear here.
              </p>
            ) : (
              <ul className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-5 sm:gap-4" aria-label="Your photos">
                {photos.map((photo, i) => (
                  <PhotoTile
                    key={photo.id}
                    photo={photo}
                    check={shownCheck(photo.key)}
                    index={i}
                    onRemove={() => remove(photo.id)}
                    onRetry={() => retry(photo.id)}
                  />
                ))}
              </ul>
            )}
          </div>
        </div>

        <aside
          aria-label="Tips for best results"
          className="self-start rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
        >
          <p className="flex items-center gap-2 text-sm font-semibold text-slate-900">
            <span className="flex size-8 items-center justify-center rounded-xl bg-amber-50 text-amber-600">
              <Lightbulb aria-hidden="true" className="size-4" />
            </span>
            Tips for best results
          </p>
          <MarkedList
            items={TIPS}
            marker={TIP_DOT}
            className="mt-4 space-y-2.5 text-sm text-slate-600"
            itemClassName="flex gap-2.5"
          />
          <p className="mt-4 border-t border-slate-100 pt-4 text-xs leading-relaxed text-slate-500">
            Photos are resized on your device before upload and used only to create your headshots.
          </p>
        </aside>
      </div>

      <StepFooter
        hint={
          pendingCount > 0
            ? 'Continue is available once your photos have finished uploading.'
            : uploadedKeys.length === 0
              ? 'Add at least one photo to continue.'
              : allRejected
                ? 'None of these photos can be used. Add a clear photo of just you to continue.'
                : (checks.mixedPeople ?? undefined)
        }
      >
        <Button size="lg" disabled={!canContinue} onClick={onContinue} className="w-full sm:w-auto">
          Continue
        </Button>
      </StepFooter>
    </section>
  );
}

/** One thumbnail: the photo, its upload progress or error, and the remove button. */
function PhotoTile({
  photo,
  check,
  index,
  onRemove,
  onRetry,
}: {
  photo: Photo;
  check: PhotoCheck | undefined;
  index: number;
  onRemove: () => void;
  onRetry: () => void;
}) {
  const [broken, setBroken] = useState(false);
  const label = `Photo ${index + 1} (${photo.name})`;
  return (
    <li
      className={cx(
        'relative aspect-square rounded-2xl bg-slate-100 ring-1',
        check?.verdict === 'rejected' ? 'ring-2 ring-red-400' : 'ring-slate-200',
      )}
      data-testid="photo-thumbnail"
      data-status={photo.status}
      data-verdict={check?.verdict}
    >
      {/* The tile clips its picture; the verdict's explanation may reach past it. */}
      <div className="absolute inset-0 overflow-hidden rounded-2xl">
        {photo.previewUrl && !broken ? (
          <img
            src={photo.previewUrl}
            alt={label}
            className={cx(
              'size-full object-cover object-[50%_20%]',
              check?.verdict === 'rejected' && 'opacity-50 grayscale',
            )}
            onError={() => setBroken(true)}
          />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-2 p-2 text-center">
            {photo.status === 'preparing' ? (
              <Spinner size="md" label={null} className="text-brand-600" />
            ) : (
              <ImagePlus aria-hidden="true" className="size-6 text-slate-400" />
            )}
            <span className="line-clamp-2 text-[0.6875rem] break-all text-slate-500">{photo.name}</span>
          </div>
        )}

        {photo.status === 'uploading' && (
          <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-slate-900/70 to-transparent px-2 pt-6 pb-2">
            <div
              role="progressbar"
              aria-label={`Uploading photo ${index + 1}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={photo.progress}
              className="h-1.5 overflow-hidden rounded-full bg-white/30"
            >
              <div
                className="h-full rounded-full bg-white transition-[width]"
                style={{ width: `${photo.progress}%` }}
              />
            </div>
          </div>
        )}
        {photo.status === 'preparing' && photo.previewUrl && (
          <div className="absolute inset-0 flex items-center justify-center bg-white/40">
            <Spinner size="md" label={null} className="text-brand-700" />
          </div>
        )}
        {photo.status === 'failed' && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-slate-900/70 p-2 text-center">
            <AlertCircle aria-hidden="true" className="size-5 text-red-300" />
            <span className="text-[0.6875rem] leading-tight font-medium text-white">Upload failed</span>
            <button
              type="button"
              onClick={onRetry}
              className="inline-flex items-center gap-1 rounded-full bg-white px-2.5 py-1 text-xs font-semibold text-slate-900 hover:bg-slate-100"
              aria-label={`Retry uploading photo ${index + 1}`}
              title={photo.error ?? undefined}
            >
              <RotateCw aria-hidden="true" className="size-3" />
              Retry
            </button>
          </div>
        )}
        {photo.status === 'uploaded' && <span className="sr-only">Uploaded</span>}
        {/* At the bottom, so it never covers the remove button (issue 27.5). */}
        {photo.status === 'uploaded' && check?.verdict === 'rejected' && (
          <span
            aria-hidden="true"
            className="absolute inset-x-0 bottom-0 bg-red-600 py-0.5 text-center text-[0.6875rem] font-semibold text-white"
          >
            Not used
          </span>
        )}

        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove photo ${index + 1}`}
          title="Remove photo"
          className="absolute top-1.5 right-1.5 flex size-7 items-center justify-center rounded-full bg-slate-900/70 text-white shadow-sm backdrop-blur transition before:absolute before:-inset-1.5 before:content-[''] hover:bg-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-white"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
      {photo.status === 'uploaded' && check && <VerdictBadge check={check} index={index} />}
    </li>
  );
}
