import { Sparkles } from 'lucide-react';
import { Button } from '../../../components/ui/Button';
import { clampPercent } from '../../../hooks/use-generation-progress';
import { GENERATOR_TEXT } from '../utils/content';

/**
 * Above steps 1-3 while the customer's generation of 6 still runs (started here, in another tab or on another
 * device): how far it is, and a way to its progress and results. Only one generation runs at a time, so this also
 * says why Generate would wait.
 */
export function ActiveGenerationNotice({ progress, onView }: { progress: number; onView: () => void }) {
  return (
    <div
      role="status"
      data-testid="active-generation"
      className="mx-auto mb-8 flex max-w-3xl flex-col gap-3 rounded-2xl bg-brand-50 p-4 text-sm ring-1 ring-brand-100 sm:flex-row sm:items-center sm:gap-4"
    >
      <Sparkles aria-hidden="true" className="hidden size-5 shrink-0 text-brand-600 sm:block" />
      <p className="flex-1 text-pretty text-brand-900">
        <strong className="font-semibold">{GENERATOR_TEXT.activeTitle(clampPercent(progress))}</strong>{' '}
        {GENERATOR_TEXT.activeBody}
      </p>
      <Button size="sm" onClick={onView}>
        {GENERATOR_TEXT.activeView}
      </Button>
    </div>
  );
}
