import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cx } from '../../lib/cx';

/** Props of {@link InfoToggle}. */
export interface InfoToggleProps {
  /** The button's accessible name, e.g. "Photo 2: Not used. Why?". */
  label: string;
  /** What the button shows (an icon, a pill). */
  trigger: ReactNode;
  /** Classes of the button. */
  triggerClassName?: string;
  /** The explanation shown while open. */
  children: ReactNode;
  /** Classes placing the panel (relative to the nearest positioned ancestor). */
  panelClassName?: string;
  /** Classes of the wrapper. */
  className?: string;
  /** `data-testid` of the wrapper. */
  testId?: string;
}

/**
 * A tap-to-toggle disclosure: a button (`aria-expanded`, `aria-controls`) that shows or hides its explanation, so
 * a phone without hover reads it too (issue 27.5: no hover-only tooltips). It closes on a second tap, a tap
 * elsewhere, and Escape (which gives the focus back to the button). WAI-ARIA disclosure pattern:
 * https://www.w3.org/WAI/ARIA/apg/patterns/disclosure/
 */
export function InfoToggle({
  label,
  trigger,
  triggerClassName,
  children,
  panelClassName,
  className,
  testId,
}: InfoToggleProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <span ref={root} className={className} data-testid={testId}>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className={triggerClassName}
      >
        {trigger}
      </button>
      <span
        id={panelId}
        hidden={!open}
        className={cx(
          'absolute z-30 w-48 rounded-lg bg-slate-900 px-2.5 py-2 text-left text-xs leading-snug font-normal text-white shadow-lg',
          panelClassName,
        )}
      >
        {children}
      </span>
    </span>
  );
}
