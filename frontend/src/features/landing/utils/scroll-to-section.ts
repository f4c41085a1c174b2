import type { MouseEvent } from 'react';

/**
 * Click handler for an in-page link (`<a href="#id">`): scrolls the target into view (smoothly unless the user
 * asked for reduced motion), moves focus there so keyboard and screen-reader users land in the same place, and
 * records the hash without a router navigation. Modified clicks (new tab, …) keep the browser's default.
 */
export function scrollToSection(event: MouseEvent<HTMLAnchorElement>, id: string): void {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  ) {
    return;
  }
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  target.scrollIntoView?.({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  target.focus({ preventScroll: true });
  // Same history entry and state: the router does not see this, so the page does not re-render or jump.
  window.history.replaceState(window.history.state, '', `#${id}`);
}
