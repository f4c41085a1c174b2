import { ArrowLeft, CreditCard, Tags, Users } from 'lucide-react';
import { useState, type Ref } from 'react';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { paths, teamHref } from '../../../config/paths';
import { useStartCheckout } from '../../../hooks/use-start-checkout';
import { usePacks, type PackId } from '../../../lib/api/get-packs';
import { checkoutReturnsToWizard } from '../../../lib/checkout-return';
import { Actions, Heading, ResultIcon, SupportLine } from './ResultParts';
import { CheckoutTermsNote } from '../../../components/LegalLinks';

/** The texts of a payment that did not complete (issue 27 "Money that reads right"). */
export const NOT_COMPLETED_TEXT = {
  title: 'Payment not completed',
  body: 'You have not been charged.',
  tryAgain: (packName: string | null) => (packName ? `Try again with the ${packName}` : 'Try again'),
  allPacks: 'See all packs',
  backToWizard: 'Back to your headshots',
  /** Ours (issue 37): a team's seat purchase goes back to the team's page, where seats are bought. */
  backToTeam: 'Back to your team',
} as const;

/**
 * The card's content when a payment was cancelled or declined: nothing was charged, so no alarm and no "contact
 * support" — the same pack again in one tap (a new Checkout Session), or back to where the purchase started (the
 * wizard, with its photos and choices, when it started there).
 */
export function NotCompleted({
  packId,
  teamId = null,
  headingRef,
}: {
  packId: PackId | null;
  /** A team's seat purchase: the way back is the team's page. */
  teamId?: string | null;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const packs = usePacks();
  const pack = packs.data?.find((p) => p.id === packId) ?? null;
  const { start, pendingPackId } = useStartCheckout();
  const [toWizard] = useState(checkoutReturnsToWizard);
  return (
    <>
      <ResultIcon tone="neutral" />
      <Heading ref={headingRef}>{NOT_COMPLETED_TEXT.title}</Heading>
      <p className="mt-3 text-lg text-pretty text-slate-700">{NOT_COMPLETED_TEXT.body}</p>
      <Actions>
        {teamId ? (
          <ButtonLink to={teamHref(teamId)}>
            <Users aria-hidden="true" className="size-4" />
            {NOT_COMPLETED_TEXT.backToTeam}
          </ButtonLink>
        ) : packId ? (
          <Button loading={pendingPackId === packId} onClick={() => void start({ id: packId })}>
            {pendingPackId !== packId && <CreditCard aria-hidden="true" className="size-4" />}
            {NOT_COMPLETED_TEXT.tryAgain(pack?.name ?? null)}
          </Button>
        ) : (
          <ButtonLink to={paths.pricing.href}>
            <Tags aria-hidden="true" className="size-4" />
            {NOT_COMPLETED_TEXT.allPacks}
          </ButtonLink>
        )}
        {teamId ? null : toWizard ? (
          <ButtonLink to={paths.generator.href} variant="secondary">
            <ArrowLeft aria-hidden="true" className="size-4" />
            {NOT_COMPLETED_TEXT.backToWizard}
          </ButtonLink>
        ) : (
          packId && (
            <ButtonLink to={paths.pricing.href} variant="secondary">
              <Tags aria-hidden="true" className="size-4" />
              {NOT_COMPLETED_TEXT.allPacks}
            </ButtonLink>
          )
        )}
      </Actions>
      {/* "Try again" starts a new purchase: the terms it accepts are linked here too. */}
      {packId && <CheckoutTermsNote className="mt-6 text-sm text-pretty text-slate-600" />}
      <SupportLine />
    </>
  );
}
