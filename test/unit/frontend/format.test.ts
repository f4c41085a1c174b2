import { describe, expect, it } from 'vitest';
import { formatPerCredit, formatPrice } from '../../../frontend/src/lib/format-price';

describe('formatPrice', () => {
  it('shows whole dollar amounts without decimals', () => {
    expect(formatPrice(3500)).toBe('$35');
    expect(formatPrice(4500, 'usd')).toBe('$45');
    expect(formatPrice(7500, 'USD')).toBe('$75');
  });

  it('keeps cents when there are some', () => {
    expect(formatPrice(4550)).toBe('$45.50');
    expect(formatPrice(99)).toBe('$0.99');
  });

  it('groups thousands', () => {
    expect(formatPrice(123_400)).toBe('$1,234');
  });
});

describe('formatPerCredit', () => {
  it('keeps a third decimal instead of rounding the price', () => {
    expect(formatPerCredit(0.875)).toBe('$0.875');
  });

  it('shows at least two decimals', () => {
    expect(formatPerCredit(0.75)).toBe('$0.75');
    expect(formatPerCredit(1)).toBe('$1.00');
  });
});

describe('US dollars written out as Intl.NumberFormat writes them', () => {
  it('matches Intl for every catalogue price and a spread of amounts', () => {
    const intl = (cents: number) => {
      const whole = cents % 100 === 0;
      return new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: whole ? 0 : 2,
        maximumFractionDigits: whole ? 0 : 2,
      }).format(cents / 100);
    };
    for (const cents of [0, 1, 5, 10, 99, 100, 101, 3500, 4550, 99_999, 100_000, 123_456_789, -4550])
      expect(formatPrice(cents)).toBe(intl(cents));
    const perCredit = (value: number) =>
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: 3,
      }).format(value);
    for (const value of [0, 0.75, 0.875, 0.8, 1, 1.2345, 0.0005, 1234.5])
      expect(formatPerCredit(value)).toBe(perCredit(value));
  });

  it('leaves other currencies and locales to Intl', () => {
    expect(formatPrice(3500, 'eur', 'de-DE')).toBe(
      new Intl.NumberFormat('de-DE', {
        style: 'currency',
        currency: 'EUR',
        minimumFractionDigits: 0,
        maximumFractionDigits: 0,
      }).format(35),
    );
  });
});
