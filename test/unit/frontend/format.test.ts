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
