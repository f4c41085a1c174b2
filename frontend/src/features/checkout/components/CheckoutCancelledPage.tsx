import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PackId } from '../../../lib/api/get-packs';
import { NotCompleted, NOT_COMPLETED_TEXT } from './NotCompleted';
import { ResultFrame } from './ResultParts';

const PACK_IDS: readonly string[] = ['starter', 'popular', 'pro'];

/**
 * `/checkout/cancelled?pack=<packId>`, Stripe Checkout's `cancel_url`: the customer left Checkout without paying
 * (Cancel, or gave up after a declined card, which Stripe shows on its own page). Says nothing was charged and
 * offers the same pack again ({@link NotCompleted}). Open to everyone: it reads nothing private.
 */
export function CheckoutCancelledPage() {
  const [params] = useSearchParams();
  const raw = params.get('pack');
  const packId = raw && PACK_IDS.includes(raw) ? (raw as PackId) : null;
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <ResultFrame title={NOT_COMPLETED_TEXT.title} state="not-completed">
      <NotCompleted packId={packId} headingRef={headingRef} />
    </ResultFrame>
  );
}
