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
  renderSectionsBefore(target);
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  target.scrollIntoView?.({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  target.focus({ preventScroll: true });
  // Same history entry and state: the router does not see this, so the page does not re-render or jump.
  window.history.replaceState(window.history.state, '', `#${id}`);
}

/**
 * Lays out, from now on, every section before `target` that the browser skips while it is off screen
 * (`render-when-near` in index.css: `content-visibility: auto`). A smooth scroll passes through them and they would
 * take their real height on the way, moving the target away from the place the scroll was aimed at (by 60 px at
 * 1280 px wide, under the sticky top bar).
 */
function renderSectionsBefore(target: HTMLElement): void {
  for (const section of document.querySelectorAll<HTMLElement>('.render-when-near')) {
    if (section.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) {
      section.style.contentVisibility = 'visible';
    }
  }
}
