// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HeadshotActions } from '../../../frontend/src/components/HeadshotActions';
import { headshotOf } from './fixtures';

/*
 * A headshot card's 'Actions' (⋯) menu, shared by the dashboard's gallery and the generator's results (issue 35
 * item 6): Delete only where the caller offers it (generator-wizard.test.tsx checks the results' menu has none), and
 * the first item focused as the menu opens, as a browser allows it (never while the menu is still under
 * visibility: hidden).
 */

const realFocus = HTMLElement.prototype.focus;

/** `el` or one of its ancestors has an inline visibility: hidden. */
function underHiddenStyle(el: HTMLElement | null): boolean {
  return el !== null && (el.style.visibility === 'hidden' || underHiddenStyle(el.parentElement));
}

beforeEach(() => {
  // jsdom focuses anything; a browser does not focus an element under visibility: hidden (HTML, "focusable area":
  // https://html.spec.whatwg.org/multipage/interaction.html#focusable-area, "being rendered").
  vi.spyOn(HTMLElement.prototype, 'focus').mockImplementation(function (this: HTMLElement, options) {
    if (!underHiddenStyle(this)) realFocus.call(this, options);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  cleanup();
});

function openMenu(onDelete?: () => void): HTMLElement {
  render(
    <HeadshotActions
      headshot={headshotOf(0)}
      onToggleFavorite={() => {}}
      onDownload={async () => {}}
      onDelete={onDelete}
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Actions' }));
  return screen.getByRole('menu', { name: 'Actions' });
}

describe('HeadshotActions', () => {
  it('focuses its first item once the menu shows, on its very first opening', () => {
    const menu = openMenu();
    const first = within(menu).getAllByRole('menuitem')[0]!;
    expect(first.textContent).toBe('Add to favorites');
    expect(document.activeElement).toBe(first);
  });

  it('sets Delete apart, last, when the caller offers it (the gallery), and asks for it on a tap', () => {
    const onDelete = vi.fn();
    const menu = openMenu(onDelete);
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Add to favorites', 'Download', 'Delete']);
    expect(within(menu).getByRole('separator').nextElementSibling).toBe(items[2]);
    fireEvent.click(items[2]!);
    expect(onDelete).toHaveBeenCalledOnce();
    expect((menu as HTMLElement).hidden).toBe(true);
  });
});
