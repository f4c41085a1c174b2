import { signInToBuyHref, useStartCheckout, type StartCheckoutOptions } from '../../hooks/use-start-checkout';
import { WithQueryClient } from '../../lib/query-client';
import { PackGrid } from './PackGrid';

/**
 * The credit packs with their working 'Get N Credits' buttons: {@link PackGrid} wired to the checkout
 * ({@link useStartCheckout}; `returnTo` as there), with the react-query client they read (lib/query-client.tsx). The
 * default export is what {@link LazyPackPurchase} loads.
 */
export default function PackPurchase(props: Pick<StartCheckoutOptions, 'returnTo'>) {
  return (
    <WithQueryClient>
      <PackPurchaseGrid {...props} />
    </WithQueryClient>
  );
}

function PackPurchaseGrid({ returnTo }: Pick<StartCheckoutOptions, 'returnTo'>) {
  const { start, pendingPackId } = useStartCheckout(returnTo ? { returnTo } : undefined);
  return (
    <PackGrid
      onSelect={(pack) => void start(pack)}
      pendingPackId={pendingPackId}
      hrefOf={(packId) => signInToBuyHref(packId, returnTo)}
    />
  );
}
