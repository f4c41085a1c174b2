/**
 * A credit pack as sold (docs/product-spec.md §9). Money is in USD cents; `pricePerCredit` is in USD for display only.
 * The server's list is the only source of price and credits: a client can name a pack, never its price.
 */
export interface CreditPack {
  id: PackId;
  name: string;
  credits: number;
  /** Price in USD cents (minor units, price × 100). */
  priceCents: number;
  currency: 'usd';
  /** USD per credit, rounded to 3 decimals, e.g. 0.875. */
  pricePerCredit: number;
  popular: boolean;
  features: readonly string[];
}

export type PackId = 'starter' | 'popular' | 'pro';

function pack(p: Omit<CreditPack, 'pricePerCredit' | 'currency'>): CreditPack {
  return { ...p, currency: 'usd', pricePerCredit: Math.round((p.priceCents * 10) / p.credits) / 1000 };
}

/** The three packs of docs/product-spec.md §9: Starter 40 credits $35, Popular 60 credits $45 (most popular), Pro 100 credits $75. */
export const CREDIT_PACKS: readonly CreditPack[] = [
  pack({
    id: 'starter',
    name: 'Starter Pack',
    credits: 40,
    priceCents: 3500,
    popular: false,
    features: [
      '40 professional headshots',
      'All styles and backgrounds',
      'High-resolution downloads',
      'Commercial rights',
    ],
  }),
  pack({
    id: 'popular',
    name: 'Popular Pack',
    credits: 60,
    priceCents: 4500,
    popular: true,
    features: [
      '60 professional headshots',
      'All styles and backgrounds',
      'High-resolution downloads',
      'Commercial rights',
      'Priority generation',
    ],
  }),
  pack({
    id: 'pro',
    name: 'Pro Pack',
    credits: 100,
    priceCents: 7500,
    popular: false,
    features: [
      '100 professional headshots',
      'All styles and backgrounds',
      'High-resolution downloads',
      'Commercial rights',
      'Priority generation',
      'Extended support',
    ],
  }),
];

/** The pack with this id, or `undefined` for an unknown id. */
export function findPack(id: string): CreditPack | undefined {
  return CREDIT_PACKS.find((p) => p.id === id);
}

/** The feature line that puts a buyer's generations first in the provider's line. */
export const PRIORITY_FEATURE = 'Priority generation';

/** Whether a pack bought by a customer gives their generations priority (Popular and Pro, per their features). */
export function grantsPriority(packId: string): boolean {
  return findPack(packId)?.features.includes(PRIORITY_FEATURE) ?? false;
}
