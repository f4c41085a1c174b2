import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { CloseButton, Modal } from '../../../components/Modal';
import { Button } from '../../../components/ui/Button';
import type { HeadshotVariant } from '../../../lib/api/contracts';
import { VARIANT_LABELS } from '../../../lib/download-headshot';
import { downloadAllAsZip } from '../utils/download-all';
import type { GalleryFilter } from '../utils/filters';

/** 'Download all' texts (docs/product-spec.md §2 "Downloads"). */
export const DOWNLOAD_ALL_TEXT = {
  button: 'Download all',
  title: 'Download all headshots',
  intro: 'Choose the files you want of each headshot. They arrive together in one ZIP.',
  /** After the ZIP, only when some of its headshots lack a picked file (issue 35: not to a customer with none). */
  olderNote: (n: number) =>
    n === 1
      ? '1 of them was made before portraits and originals existed, so it comes as the LinkedIn square only.'
      : `${n} of them were made before portraits and originals existed, so they come as the LinkedIn square only.`,
  confirm: 'Download ZIP',
  noneChosen: 'Choose at least one file.',
  failed: 'Failed to download your headshots. Please try again.',
} as const;

const HINTS: Record<HeadshotVariant, string> = {
  square: '1024 × 1024 JPEG, for profile photos',
  portrait: '4:5 JPEG, for résumés and company pages',
  original: 'The whole image at the size it was generated, lossless, for print',
};

const CHOICES: readonly HeadshotVariant[] = ['square', 'portrait', 'original'];

/**
 * 'Download all': the current filter's headshots as one ZIP. The button opens a dialog where the customer picks
 * which files of each headshot go in (the LinkedIn square, chosen by default; the résumé portrait; the original PNG),
 * then the ZIP is built with progress on the button. Its success toast says how many headshots came as the square
 * only (made before portraits and originals existed), and only when there are some.
 */
export function DownloadAllButton({ filter, disabled }: { filter: GalleryFilter; disabled: boolean }) {
  const [choosing, setChoosing] = useState(false);
  const [progress, setProgress] = useState<string | undefined>();
  const run = async (variants: HeadshotVariant[]) => {
    setChoosing(false);
    setProgress('Preparing ZIP...');
    try {
      const { headshots: count, squareOnly } = await downloadAllAsZip(filter, variants, (done, total) =>
        setProgress(`Preparing ZIP ${done}/${total}...`),
      );
      if (count > 0)
        toast.success(
          `Downloaded ${count} headshot${count === 1 ? '' : 's'} as a ZIP`,
          squareOnly > 0 ? { description: DOWNLOAD_ALL_TEXT.olderNote(squareOnly) } : undefined,
        );
    } catch {
      toast.error(DOWNLOAD_ALL_TEXT.failed);
    } finally {
      setProgress(undefined);
    }
  };
  return (
    <>
      <Button
        variant="secondary"
        disabled={disabled || progress !== undefined}
        onClick={() => setChoosing(true)}
      >
        <Download aria-hidden="true" className="size-4" />
        <span aria-live="polite">{progress ?? DOWNLOAD_ALL_TEXT.button}</span>
      </Button>
      {choosing && <ChooseFiles onCancel={() => setChoosing(false)} onConfirm={(v) => void run(v)} />}
    </>
  );
}

function ChooseFiles({
  onCancel,
  onConfirm,
}: {
  onCancel: () => void;
  onConfirm: (variants: HeadshotVariant[]) => void;
}) {
  const titleId = useId();
  const introId = useId();
  const [chosen, setChosen] = useState<Set<HeadshotVariant>>(() => new Set(['square']));
  const toggle = (variant: HeadshotVariant) =>
    setChosen((before) => {
      const next = new Set(before);
      if (!next.delete(variant)) next.add(variant);
      return next;
    });
  return (
    <Modal labelledBy={titleId} describedBy={introId} onClose={onCancel} className="max-w-md">
      <form
        className="p-6"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen.size > 0) onConfirm(CHOICES.filter((v) => chosen.has(v)));
        }}
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {DOWNLOAD_ALL_TEXT.title}
          </h2>
          <CloseButton onClick={onCancel} />
        </div>
        <p id={introId} className="mt-2 text-sm text-slate-600">
          {DOWNLOAD_ALL_TEXT.intro}
        </p>
        <fieldset className="mt-4 space-y-2">
          <legend className="sr-only">Files of each headshot</legend>
          {CHOICES.map((variant) => (
            <label
              key={variant}
              className="flex cursor-pointer items-start gap-3 rounded-2xl border border-slate-200 p-3 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50"
            >
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-brand-600"
                checked={chosen.has(variant)}
                onChange={() => toggle(variant)}
              />
              <span className="text-sm">
                <span className="block font-medium text-slate-900">{VARIANT_LABELS[variant]}</span>
                <span className="block text-slate-600">{HINTS[variant]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {chosen.size === 0 && (
          <p role="alert" className="mt-2 text-sm text-red-600">
            {DOWNLOAD_ALL_TEXT.noneChosen}
          </p>
        )}
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={chosen.size === 0}>
            <Download aria-hidden="true" className="size-4" />
            {DOWNLOAD_ALL_TEXT.confirm}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
