import { describe, expect, it } from 'vitest';
import {
  assertInLook,
  isLocked,
  normaliseLook,
  openLook,
  type TeamLook,
} from '../../functions/domain/team-look';
import {
  assertMayEdit,
  assertMayGenerate,
  payingTeam,
  SEAT_CREDITS,
  SEAT_EDIT_CREDITS,
  seatPriceCents,
  seatPurchase,
} from '../../functions/domain/team-seats';
import { CREDIT_PACKS } from '../../functions/domain/packs';
import { GENERATION_COST } from '../../functions/domain/credits';
import {
  LookLockedError,
  TeamAllowanceUsedError,
  TeamNoSeatsError,
} from '../../functions/domain/team-errors';

/* The brand look and seats (docs/teams.md "The brand look", "Money"; docs/decisions/029-team-seats.md). */

const locked: TeamLook = {
  styles: ['professional'],
  backgrounds: [{ type: 'colour', colour: '#1f6feb' }],
  outfits: ['blazer'],
};

describe('the brand look (functions/domain/team-look.ts)', () => {
  it('lets a choice inside the look through', () => {
    const choice = {
      style: 'professional',
      background: 'studio',
      backgroundColour: '#1f6feb',
      outfit: 'blazer',
    } as const;
    expect(() => assertInLook(locked, choice)).not.toThrow();
    expect(() =>
      assertInLook(openLook(), { style: 'creative', background: 'office', outfit: 'shirt' }),
    ).not.toThrow();
  });

  it('refuses a style, background or outfit outside it, naming the field', () => {
    const base = {
      style: 'professional',
      background: 'studio',
      backgroundColour: '#1f6feb',
      outfit: 'blazer',
    } as const;
    const field = (choice: Parameters<typeof assertInLook>[1]) => {
      try {
        assertInLook(locked, choice);
        return undefined;
      } catch (error) {
        expect(error).toBeInstanceOf(LookLockedError);
        return (error as LookLockedError).field;
      }
    };
    expect(field({ ...base, style: 'creative' })).toBe('style');
    expect(field({ ...base, backgroundColour: '#000000' })).toBe('background');
    expect(field({ ...base, backgroundColour: undefined })).toBe('background');
    // A colour backdrop is always filed under the studio preset; another preset with the colour is not the look.
    expect(field({ ...base, background: 'office' })).toBe('background');
    expect(field({ ...base, outfit: 'shirt' })).toBe('outfit');
  });

  it('stores a look without repeats, colours in lower case, and says when it is locked', () => {
    const look = normaliseLook({
      styles: ['professional', 'professional'],
      backgrounds: [
        { type: 'colour', colour: '#1F6FEB' },
        { type: 'colour', colour: '#1f6feb' },
        { type: 'preset', background: 'office' },
      ],
      outfits: ['blazer'],
    });
    expect(look).toEqual({
      styles: ['professional'],
      backgrounds: [
        { type: 'colour', colour: '#1f6feb' },
        { type: 'preset', background: 'office' },
      ],
      outfits: ['blazer'],
    });
    expect(isLocked(look)).toBe(false);
    expect(isLocked(locked)).toBe(true);
    expect(isLocked(openLook())).toBe(false);
  });
});

describe('seats (functions/domain/team-seats.ts)', () => {
  it('holds one generation and the edits', () => {
    expect(SEAT_CREDITS).toBe(GENERATION_COST + SEAT_EDIT_CREDITS);
    expect(SEAT_CREDITS).toBe(8);
  });

  it('costs the packs’ per-credit price a customer buying as many credits would reach', () => {
    expect(seatPriceCents(1)).toBe(700);
    expect(seatPriceCents(7)).toBe(700);
    expect(seatPriceCents(8)).toBe(600);
    expect(seatPriceCents(200)).toBe(600);
    expect(seatPurchase(3)).toEqual({ unitCents: 700, totalCents: 2100, credits: 24 });
    // Never cheaper per credit than the best pack a person buying no more credits could buy.
    for (const seats of [1, 5, 8, 13, 50]) {
      const perCredit = seatPriceCents(seats) / SEAT_CREDITS;
      const reached = CREDIT_PACKS.filter((p) => p.credits <= seats * SEAT_CREDITS);
      const best = Math.min(
        ...(reached.length ? reached : CREDIT_PACKS).map((p) => p.priceCents / p.credits),
      );
      expect(perCredit).toBeGreaterThanOrEqual(best);
    }
  });

  it('refuses seat counts out of range, and packs that would not give whole cents', () => {
    for (const bad of [0, -1, 1.5, 201]) expect(() => seatPriceCents(bad)).toThrow(RangeError);
    const odd = [{ ...CREDIT_PACKS[0]!, credits: 3, priceCents: 100 }];
    expect(() => seatPriceCents(1, odd)).toThrow(RangeError);
  });

  it('lets a member make one generation and 2 edits while the team can pay', () => {
    expect(() => assertMayGenerate({ generationsUsed: 0, editsUsed: 0 }, 6)).not.toThrow();
    expect(() => assertMayGenerate({ generationsUsed: 1, editsUsed: 0 }, 100)).toThrow(
      'You have already made your team headshots.',
    );
    expect(() => assertMayGenerate({ generationsUsed: 0, editsUsed: 0 }, 5)).toThrow(TeamNoSeatsError);
    expect(() => assertMayEdit({ generationsUsed: 1, editsUsed: 1 }, 1)).not.toThrow();
    expect(() => assertMayEdit({ generationsUsed: 1, editsUsed: 2 }, 100)).toThrow(
      'You have used all 2 of your team edits.',
    );
    expect(() => assertMayEdit({ generationsUsed: 1, editsUsed: 2 }, 100)).toThrow(TeamAllowanceUsedError);
    expect(() => assertMayEdit({ generationsUsed: 1, editsUsed: 0 }, 0)).toThrow(TeamNoSeatsError);
  });

  it('names the paying team of a generation, none for the customer’s own', () => {
    expect(payingTeam({ team: 'T1' })).toBe('T1');
    expect(payingTeam('user')).toBeUndefined();
    expect(payingTeam(undefined)).toBeUndefined();
  });
});
