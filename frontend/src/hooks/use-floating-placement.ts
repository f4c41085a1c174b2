import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';

/** The gap between a floating panel and the viewport's edge, and between it and its button, in CSS px. */
export const FLOATING_MARGIN = 8;
const GAP = 6;

/** A rectangle in viewport CSS px, as `getBoundingClientRect()` gives it. */
export interface ViewportRect {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Where a panel of `size` (CSS px) goes beside the `anchor` button, in viewport CSS px: above it when it fits there,
 * else below; its start (`align: 'start'`) or end (`'end'`) lined up with the button's, then moved sideways as
 * little as needed to keep {@link FLOATING_MARGIN} from both edges of a `viewport` that wide (a panel wider than
 * the viewport starts at the margin). Pure.
 */
export function placeFloating(
  anchor: ViewportRect,
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  align: 'start' | 'end',
): { left: number; top: number } {
  const wanted = align === 'end' ? anchor.right - size.width : anchor.left;
  const rightmost = viewport.width - FLOATING_MARGIN - size.width;
  const left = Math.max(FLOATING_MARGIN, Math.min(wanted, rightmost));
  const above = anchor.top - GAP - size.height;
  const top = above >= FLOATING_MARGIN ? above : anchor.bottom + GAP;
  return { left, top };
}

/**
 * The inline style of a panel floating beside `anchor` while `open`: `position: fixed` at {@link placeFloating}'s
 * place, so no ancestor's `overflow: hidden` (a card's rounded corners) clips it and it stays inside the viewport
 * at 390 px (issue 35 item 6); it follows the button when the page scrolls or the window resizes. Undefined while
 * closed. Measured before paint (layout effect), so the panel never shows at its unplaced spot.
 */
export function useFloatingPlacement(
  open: boolean,
  anchor: RefObject<HTMLElement | null>,
  panel: RefObject<HTMLElement | null>,
  align: 'start' | 'end',
): CSSProperties | undefined {
  const [place, setPlace] = useState<{ left: number; top: number }>();

  useLayoutEffect(() => {
    // Closed, the last place stays unused; opening measures again before the browser paints.
    if (!open) return;
    const update = () => {
      const button = anchor.current;
      const box = panel.current;
      if (!button || !box) return;
      const viewport = { width: document.documentElement.clientWidth, height: window.innerHeight };
      const size = { width: box.offsetWidth, height: box.offsetHeight };
      setPlace(placeFloating(button.getBoundingClientRect(), size, viewport, align));
    };
    update();
    // Capture: a scroll of any container (a dialog's body) moves the button too.
    window.addEventListener('scroll', update, true);
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update, true);
      window.removeEventListener('resize', update);
    };
  }, [open, anchor, panel, align]);

  if (!open) return undefined;
  return place
    ? { position: 'fixed', left: place.left, top: place.top }
    : { position: 'fixed', visibility: 'hidden' };
}
