import { useId, type ReactNode } from 'react';
import { Button } from './ui/Button';
import { CloseButton, Modal } from './Modal';

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  title: string;
  /** What will happen, in full. */
  children: ReactNode;
  /** The confirming button's text, e.g. 'Delete'. */
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** True while the confirmed action runs: the confirm button spins and nothing can be clicked twice. */
  busy?: boolean;
}

/** A yes/no question before something that cannot be undone. Cancel has the focus first, so Enter is safe. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
}: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  return (
    <Modal
      labelledBy={titleId}
      describedBy={bodyId}
      onClose={busy ? () => {} : onCancel}
      className="max-w-md"
    >
      <div className="p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {!busy && <CloseButton onClick={onCancel} />}
        </div>
        <div id={bodyId} className="mt-3 text-sm text-slate-600">
          {children}
        </div>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel} disabled={busy} autoFocus>
            Cancel
          </Button>
          <Button
            onClick={onConfirm}
            loading={busy}
            className="bg-red-600 shadow-red-600/25 hover:bg-red-700 focus-visible:outline-red-600 disabled:hover:bg-red-600"
          >
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
