/**
 * Prices as price tags show them. US dollars in `en-US` (every credit pack: functions/domain/packs.ts) are written
 * out here rather than by `Intl.NumberFormat`: the first formatter a page makes loads the browser's ICU currency
 * data, measured at about 40 ms of main-thread time in Chromium on the bench machine (160 ms at Lighthouse's 4×
 * mobile slowdown), in the middle of hydrating the pricing section. Any other currency or locale still uses
 * `Intl.NumberFormat`.
 */

/** `1234567` → `1,234,567` (en-US digit grouping). */
function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `amount` USD in en-US: `$`, the grouped whole part, then `minDecimals`-`maxDecimals` (0-3) decimals, rounded. */
function usd(amount: number, minDecimals: number, maxDecimals: number): string {
  const sign = amount < 0 ? '-' : '';
  const scale = 10 ** maxDecimals;
  const scaled = Math.round(Math.abs(amount) * scale);
  const whole = Math.floor(scaled / scale);
  let fraction = String(scaled % scale).padStart(maxDecimals, '0');
  while (fraction.length > minDecimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${sign}$${groupThousands(whole)}${fraction ? `.${fraction}` : ''}`;
}

const isUsdInEnUs = (currency: string, locale: string) =>
  currency.toLowerCase() === 'usd' && locale === 'en-US';

/**
 * Formats an amount in minor units (cents) as a price: `3500` → `$35`, `4550` → `$45.50`, `123400` → `$1,234`.
 * Whole amounts show no decimals, as price tags do. `currency` is an ISO 4217 code in either case.
 */
export function formatPrice(amountMinor: number, currency = 'usd', locale = 'en-US'): string {
  const whole = amountMinor % 100 === 0;
  if (isUsdInEnUs(currency, locale)) return usd(amountMinor / 100, whole ? 0 : 2, whole ? 0 : 2);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amountMinor / 100);
}

/**
 * Formats a per-credit price given in major units: `0.875` → `$0.875`, `0.75` → `$0.75`, `1` → `$1.00`.
 * Keeps a third decimal when there is one, because rounding $0.875 to $0.88 would misstate the price.
 */
export function formatPerCredit(amountMajor: number, currency = 'usd', locale = 'en-US'): string {
  if (isUsdInEnUs(currency, locale)) return usd(amountMajor, 2, 3);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: 2,
    maximumFractionDigits: 3,
  }).format(amountMajor);
}

/**
 * Formats an amount in minor units (cents) always with its cents, as a receipt or a total writes it: `2100` →
 * `$21.00`, `700` → `$7.00` (docs/product-spec.md §2 "Teams": money with cents).
 */
export function formatAmount(amountMinor: number, currency = 'usd', locale = 'en-US'): string {
  if (isUsdInEnUs(currency, locale)) return usd(amountMinor / 100, 2, 2);
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(
    amountMinor / 100,
  );
}
