import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useFloatingPlacement } from '../../hooks/use-floating-placement';
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
  /** Classes placing the panel (relative to the nearest positioned ancestor, unless `floating`). */
  panelClassName?: string;
  /**
   * The panel floats in the viewport instead (`position: fixed`, above the button when it fits, its start lined
   * up with the button's, never past the screen's edges), so a card's `overflow: hidden` cannot clip it (issue 35
   * item 6: the match-% explanation was cut at the card's edge on a 390 px phone).
   */
  floating?: boolean;
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
  floating = false,
}: InfoToggleProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLSpanElement>(null);
  const placement = useFloatingPlacement(open && floating, button, panel, 'start');

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
        ref={panel}
        id={panelId}
        hidden={!open}
        style={placement}
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
