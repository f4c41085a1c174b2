import { ImageUp, UserRoundX } from 'lucide-react';
import { Button } from '../../../components/ui/Button';
import { GENERATOR_TEXT } from '../utils/content';
import { ResultHeading } from './StepLayout';

/** Props of {@link LikenessNotice}. */
export interface LikenessNoticeProps {
  /** The generation's `error.message`: why it stopped, what was refunded, which photos to try. */
  message: string;
  /** `failed`: nothing was delivered (the notice is the whole result); `partial`: shown above the headshots made. */
  variant: 'failed' | 'partial';
  /** Back to step 1 to choose other photos. */
  onNewPhotos: () => void;
}

/**
 * What the results screen says when the likeness cap stopped a generation (docs/decisions/004-likeness-retry-cap.md):
 * its headshots kept failing the likeness check (or the day's attempts ran out), so instead of generating again the
 * customer is told why, what came back, and asked for other photos, with one button to choose them.
 */
export function LikenessNotice({ message, variant, onNewPhotos }: LikenessNoticeProps) {
  const failed = variant === 'failed';
  return (
    <div
      role={failed ? 'alert' : 'note'}
      data-testid="likeness-notice"
      className={
        failed
          ? 'mx-auto max-w-2xl rounded-3xl bg-white p-6 text-center shadow-sm ring-1 ring-amber-200 sm:p-10'
          : 'mx-auto mt-5 flex max-w-xl flex-col items-start gap-3 rounded-2xl bg-amber-50 p-4 text-left text-sm text-amber-950 ring-1 ring-amber-200'
      }
    >
      {failed ? (
        <ResultHeading icon={UserRoundX} tone="stopped">
          {GENERATOR_TEXT.likenessTitle}
        </ResultHeading>
      ) : (
        <p className="flex items-center gap-2 font-semibold">
          <UserRoundX aria-hidden="true" className="size-5 shrink-0 text-amber-600" />
          {GENERATOR_TEXT.likenessTitle}
        </p>
      )}
      <p className={failed ? 'mt-3 text-base text-pretty text-slate-600' : 'text-pretty'}>{message}</p>
      <Button
        size={failed ? 'lg' : 'md'}
        variant={failed ? 'primary' : 'secondary'}
        onClick={onNewPhotos}
        className={failed ? 'mt-6' : undefined}
      >
        <ImageUp aria-hidden="true" className="size-5" />
        {GENERATOR_TEXT.uploadDifferentPhotos}
      </Button>
    </div>
  );
}
