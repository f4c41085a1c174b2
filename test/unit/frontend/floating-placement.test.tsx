// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LikenessBadge } from '../../../frontend/src/components/ui/LikenessBadge';
import { FLOATING_MARGIN, placeFloating } from '../../../frontend/src/hooks/use-floating-placement';

/*
 * Panels that float beside their button inside the viewport (issue 35 item 6): the match-% explanation was cut at
 * a gallery card's edge on a 390 px phone; the card's '⋯' menu must not leave the screen either.
 */

const PHONE = { width: 390, height: 844 };
/** A 224 px wide, 80 px high panel: the likeness explanation's w-56. */
const PANEL = { width: 224, height: 80 };
const rect = (left: number, top: number, width: number, height: number) => ({
  left,
  top,
  right: left + width,
  bottom: top + height,
});

afterEach(cleanup);

describe('placeFloating', () => {
  it('lines the panel up with the button when it fits, above it', () => {
    expect(placeFloating(rect(20, 400, 90, 28), PANEL, PHONE, 'start')).toEqual({ left: 20, top: 314 });
  });

  it("moves a panel that would pass the screen's right edge back inside, by the margin", () => {
    // A badge in the right-hand card of a 2-column grid on a phone.
    const place = placeFloating(rect(300, 400, 80, 28), PANEL, PHONE, 'start');
    expect(place.left).toBe(PHONE.width - FLOATING_MARGIN - PANEL.width);
    expect(place.left + PANEL.width).toBeLessThanOrEqual(PHONE.width - FLOATING_MARGIN);
  });

  it("ends a menu at its button's end, and keeps it off the left edge", () => {
    // The '⋯' of the left-hand card ends 185 px from the left: a 224 px menu would start at -39.
    expect(placeFloating(rect(149, 600, 36, 36), PANEL, PHONE, 'end').left).toBe(FLOATING_MARGIN);
    expect(placeFloating(rect(338, 600, 36, 36), PANEL, PHONE, 'end').left).toBe(374 - 224);
  });

  it('opens below the button when there is no room above it', () => {
    expect(placeFloating(rect(20, 40, 90, 28), PANEL, PHONE, 'start').top).toBe(40 + 28 + 6);
  });

  it('starts a panel wider than the screen at the margin', () => {
    expect(placeFloating(rect(100, 400, 90, 28), { width: 500, height: 80 }, PHONE, 'start').left).toBe(
      FLOATING_MARGIN,
    );
  });
});

describe('the likeness explanation', () => {
  it('opens on a tap as a fixed panel inside a 390 px screen, whatever card clips its button', () => {
    Object.defineProperty(document.documentElement, 'clientWidth', { configurable: true, value: 390 });
    render(
      <div style={{ overflow: 'hidden', width: 173 }}>
        <LikenessBadge likeness={92} />
      </div>,
    );
    const button = screen.getByRole('button', { name: '92% match with your photos. What does this mean?' });
    button.getBoundingClientRect = () => ({
      ...rect(300, 500, 80, 28),
      x: 300,
      y: 500,
      width: 80,
      height: 28,
      toJSON: () => ({}),
    });
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    Object.defineProperty(panel, 'offsetWidth', { configurable: true, value: 224 });
    Object.defineProperty(panel, 'offsetHeight', { configurable: true, value: 80 });

    fireEvent.click(button);
    expect(panel.hidden).toBe(false);
    expect(panel.style.position).toBe('fixed');
    expect(panel.style.left).toBe(`${390 - FLOATING_MARGIN - 224}px`);
    expect(panel.style.top).toBe(`${500 - 6 - 80}px`);

    fireEvent.click(button);
    expect(panel.hidden).toBe(true);
    expect(panel.style.position).toBe('');
  });
});
