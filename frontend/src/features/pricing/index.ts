/**
 * Pricing: the `/pricing` page. Import from here (`features/pricing`). The pack cards and grid are shared with the
 * landing page (`components/packs`), the pack list is `lib/api/get-packs`.
 */
export { PricingPage, PRICING_TEXT } from './components/PricingPage';
