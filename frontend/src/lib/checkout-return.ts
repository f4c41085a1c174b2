/**
 * Where a purchase started from the wizard returns to (issue 27 "Money that reads right"): the wizard's "Buy More"
 * remembers it for this tab (`sessionStorage`, which outlives the trip to Stripe's page and back), and the payment
 * result page then offers going back to the wizard, whose draft (the photos, the style, the background) is kept in
 * the same tab (`features/generator/utils/wizard-draft.ts`). Opening the wizard again forgets it.
 */

/** The `sessionStorage` key of the wizard's draft (owned here so the payment pages can tell it exists). */
export const WIZARD_DRAFT_KEY = 'hs.generator.draft';
const RETURN_KEY = 'hs.checkout.return';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
const storage = (): Store | undefined => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);

const PACK_KEY = 'hs.checkout.pack';
const PACK_IDS: readonly string[] = ['starter', 'popular', 'pro'];

/**
 * Remembers the pack whose checkout this tab is leaving for, so a payment that did not complete can offer the same
 * pack again. Never throws.
 */
export function rememberCheckoutPack(packId: string, store: Store | undefined = storage()): void {
  try {
    store?.setItem(PACK_KEY, packId);
  } catch {
    // Not remembered: the result page then offers every pack.
  }
}

/** The pack this tab last left for checkout with, if it is one of ours. */
export function lastCheckoutPack(store: Store | undefined = storage()): string | null {
  try {
    const id = store?.getItem(PACK_KEY) ?? null;
    return id && PACK_IDS.includes(id) ? id : null;
  } catch {
    return null;
  }
}

/** Remembers that a purchase is being started from the wizard. Never throws (storage blocked: not remembered). */
export function rememberWizardForCheckout(): void {
  const store = storage();
  try {
    store?.setItem(RETURN_KEY, 'generator');
  } catch {
    // Not remembered: the result page then offers the dashboard, as for any purchase.
  }
}

/** Whether the purchase came from the wizard and the wizard's draft is still there to go back to. */
export function checkoutReturnsToWizard(store: Store | undefined = storage()): boolean {
  try {
    return store?.getItem(RETURN_KEY) === 'generator' && store.getItem(WIZARD_DRAFT_KEY) !== null;
  } catch {
    return false;
  }
}

/** Forgets where the purchase came from (the wizard is open again). */
export function forgetCheckoutReturn(store: Store | undefined = storage()): void {
  try {
    store?.removeItem(RETURN_KEY);
  } catch {
    // Nothing to forget.
  }
}
