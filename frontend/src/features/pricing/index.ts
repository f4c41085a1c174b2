/**
 * Pricing: the credit packs (`GET /api/packs`), their cards and grid (shared with the landing page) and the
 * `/pricing` page. Import from here (`features/pricing`).
 */
export { PricingPage, PRICING_TEXT } from './PricingPage';
export { PricingFooter, PricingHeader, useBack, BACK_FALLBACK } from './PricingHeader';
export type { PricingHeaderProps } from './PricingHeader';
export { TrustLine, TRUST_ITEMS } from './TrustLine';
export { PackGrid } from './PackGrid';
export type { PackGridProps } from './PackGrid';
export { PackCard } from './PackCard';
export type { PackCardProps } from './PackCard';
export { usePacks, fetchPacks, packSchema, packsQueryKey } from './api';
export type { Pack, PackId } from './api';
export { formatPrice, formatPerCredit } from './format';
