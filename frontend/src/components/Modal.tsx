import { X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { cx } from '../lib/cx';

/** Props of {@link Modal}. */
export interface ModalProps {
  /** Id of the element that names the dialog (its heading). */
  labelledBy: string;
  /** Id of the element that describes it, if any. */
  describedBy?: string;
  /** Called on Escape, the close button and a click on the backdrop. */
  onClose: () => void;
  /** Classes of the dialog box (size, padding). */
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog on the native `<dialog>` element, opened with `showModal()` as it mounts: the browser traps
 * focus inside, makes the page behind inert, closes on Escape and shows the backdrop. Render it only while open;
 * on unmount, focus goes back to what had it before (the button that opened it).
 */
export function Modal({ labelledBy, describedBy, onClose, className, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom has no showModal; the open attribute is the same dialog without the top layer.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      // A click on the backdrop lands on the dialog element itself (the box fills it edge to edge).
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={cx(
        'm-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] overflow-auto rounded-3xl bg-white p-0 text-slate-900 shadow-2xl',
        'backdrop:bg-slate-950/70 backdrop:backdrop-blur-sm',
        className,
      )}
    >
      {children}
    </dialog>
  );
}

/** The round × in a dialog's corner. */
export function CloseButton({ onClick, label = 'Close' }: { onClick: () => void; label?: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="inline-flex size-9 shrink-0 items-center justify-center rounded-full text-slate-500 transition hover:bg-slate-100 hover:text-slate-900"
    >
      <X aria-hidden="true" className="size-5" />
      <span className="sr-only">{label}</span>
    </button>
  );
}
