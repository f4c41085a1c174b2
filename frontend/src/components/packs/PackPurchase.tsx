import { useStartCheckout, type StartCheckoutOptions } from '../../hooks/use-start-checkout';
import { PackGrid } from './PackGrid';

/**
 * The credit packs with their working 'Get N Credits' buttons: {@link PackGrid} wired to the checkout
 * ({@link useStartCheckout}; `returnTo` as there). The default export is what {@link LazyPackPurchase} loads.
 */
export default function PackPurchase({ returnTo }: Pick<StartCheckoutOptions, 'returnTo'>) {
  const { start, pendingPackId } = useStartCheckout(returnTo ? { returnTo } : undefined);
  return <PackGrid onSelect={(pack) => void start(pack)} pendingPackId={pendingPackId} />;
}
