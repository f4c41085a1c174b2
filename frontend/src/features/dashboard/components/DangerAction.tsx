import type { LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Button } from '../../../components/ui/Button';
import { cx } from '../../../lib/cx';

/** Props of {@link DangerAction}. */
export interface DangerActionProps {
  icon: LucideIcon;
  /** The button's icon; default {@link icon}. */
  buttonIcon?: LucideIcon;
  /** The row's heading, e.g. 'Privacy'. */
  heading: string;
  /** `h2` for a section's own heading (with `headingId` naming the section), `h3` for a row inside it. */
  headingLevel?: 'h2' | 'h3';
  headingId?: string;
  /** One line on what the action does. */
  intro: string;
  /** The button's text, also the dialog's confirming button unless `confirmLabel` says otherwise. */
  button: string;
  confirmTitle: string;
  confirmLabel?: string;
  /** The action runs: the confirming button spins. */
  busy: boolean;
  /** Runs the action; call `close` when the dialog should go (after a failure, say). */
  onConfirm: (close: () => void) => void;
  className?: string;
  /** The dialog's full account of what will happen. */
  children: ReactNode;
}

/**
 * A destructive action set apart on the dashboard: an icon, a heading, one line on what it does and a red button
 * that opens a confirmation saying everything it deletes, before anything is deleted.
 */
export function DangerAction({
  icon: Icon,
  buttonIcon: ButtonIcon = Icon,
  heading,
  headingLevel: Heading = 'h3',
  headingId,
  intro,
  button,
  confirmTitle,
  confirmLabel = button,
  busy,
  onConfirm,
  className,
  children,
}: DangerActionProps) {
  const [confirming, setConfirming] = useState(false);
  const close = () => setConfirming(false);
  return (
    <div className={cx('flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between', className)}>
      <div className="flex items-start gap-3">
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
        <div>
          <Heading id={headingId} className="text-base font-semibold text-slate-900">
            {heading}
          </Heading>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{intro}</p>
        </div>
      </div>
      <Button
        variant="secondary"
        className="shrink-0 text-red-700 ring-red-300 hover:bg-red-50 hover:ring-red-400"
        onClick={() => setConfirming(true)}
      >
        <ButtonIcon aria-hidden="true" className="size-4" />
        {button}
      </Button>
      {confirming && (
        <ConfirmDialog
          title={confirmTitle}
          confirmLabel={confirmLabel}
          busy={busy}
          onConfirm={() => onConfirm(close)}
          onCancel={close}
        >
          {children}
        </ConfirmDialog>
      )}
    </div>
  );
}
