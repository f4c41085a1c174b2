import { CREDITS_PER_HEADSHOT } from '../../../../../functions/domain/credits';
import { DEFAULT_LIKENESS_THRESHOLD } from '../../../../../functions/domain/likeness';
import { LIKENESS_EXPLANATION } from '../../../components/ui/LikenessBadge';
import { paths } from '../../../config/paths';
import { REFUND_POLICY } from '../../../lib/refund-policy';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';
import { LegalList, LegalPage, LegalSection, TextLink } from './LegalPage';

/**
 * `/refunds`: the refund policy (issue 27 item 7). Its rules are lib/refund-policy.ts's sentences, the ones the
 * dashboard's account deletion shows, so they are written once; the likeness guarantee is explained with the
 * likeness pill's own text and the delivery threshold.
 */
export function RefundPolicyPage() {
  const { supportEmail } = useRuntimeConfig();
  return (
    <LegalPage
      title="Refund Policy"
      href={paths.refunds.href}
      summary={<p>{REFUND_POLICY.summary(supportEmail)}</p>}
    >
      <LegalSection id="automatic-refunds" title="Headshots we do not deliver">
        <p>{REFUND_POLICY.automatic}</p>
        <p>
          A standard headshot costs {CREDITS_PER_HEADSHOT.standard} credit and a high-resolution one{' '}
          {CREDITS_PER_HEADSHOT.high}; each undelivered headshot gives back what it cost. Your
          dashboard&apos;s purchase history and balance show the result.
        </p>
      </LegalSection>

      <LegalSection id="likeness-guarantee" title="Our likeness guarantee">
        <p>
          Every headshot shows a match percentage, for example &ldquo;92% match&rdquo;. {LIKENESS_EXPLANATION}
        </p>
        <LegalList>
          <li>
            <strong>What the percentage means.</strong> Our face model compares the face in the headshot with
            the faces in your best photos. 100% means the faces are as alike as two photos of the same person
            get; photos of the same person typically score 70-100%, and a different person scores far lower,
            usually 0%.
          </li>
          <li>
            <strong>The threshold.</strong> We deliver a headshot only when it scores at least{' '}
            {DEFAULT_LIKENESS_THRESHOLD}%. Below that, we make it again once, at no cost to you; if the second
            one also falls short, that headshot is not delivered and its credits come back to your balance.
          </li>
          <li>
            <strong>When your photos are the problem.</strong> If several headshots of one generation fail,
            usually because the photos show different people or faces the model cannot read, we stop that
            generation, refund the rest, and ask you for other photos.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="card-refunds" title="Refunds to your card">
        <p>
          To ask for a refund of credits you bought and have not used, e-mail{' '}
          <a className="font-medium text-brand-700 underline" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>{' '}
          from the address of your account and tell us which purchase (your dashboard lists them with their
          receipts).
        </p>
        <p>{REFUND_POLICY.toCard}</p>
        <p>{REFUND_POLICY.reversal}</p>
      </LegalSection>

      <LegalSection id="deleting-your-account" title="Deleting your account">
        <p>
          Credits go with the account when you delete it. Ask for your refund first: once the account is
          deleted we can no longer tell which credits were yours. See the{' '}
          <TextLink to={paths.privacy.href}>Privacy Policy</TextLink> for what deletion removes.
        </p>
      </LegalSection>

      <LegalSection id="your-rights" title="Your statutory rights">
        <p>
          This policy does not limit any right you have under the consumer law of your country. Credits are
          used to start a generation as soon as you choose to, which may end a right to withdraw from the
          purchase for the credits you spent. The <TextLink to={paths.terms.href}>Terms of Service</TextLink>{' '}
          apply to every purchase.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
