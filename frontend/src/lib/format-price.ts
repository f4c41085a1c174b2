/**
 * Formats an amount in minor units (cents) as a price: `3500` → `$35`, `4550` → `$45.50`.
 * Whole amounts show no decimals, as price tags do.
 */
export function formatPrice(amountMinor: number, currency = 'usd', locale = 'en-US'): string {
  const whole = amountMinor % 100 === 0;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amountMinor / 100);
}

/**
 * Formats a per-credit price given in major units: `0.875` → `$0.875`, `0.75` → `$0.75`.
 * Keeps a third decimal when there is one, because rounding $0.875 to $0.88 would misstate the price.
 */
export function formatPerCredit(amountMajor: number, currency = 'usd', locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: 2,
    maximumFractionDigits: 3,
  }).format(amountMajor);
}
