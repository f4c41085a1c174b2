import { SIGNUP_BONUS_CREDITS } from '../../../../../functions/domain/credits';
import { generationCost } from '../../../../../functions/domain/generation-cost';
import { HEADSHOTS_PER_GENERATION } from '../../../../../functions/domain/slots';
import { paths } from '../../../config/paths';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';
import { useLegalEntity } from '../hooks/use-legal-entity';
import { LegalList, LegalPage, LegalSection, TextLink } from './LegalPage';

/** `/terms`: the Terms of Service (issue 27 item 7). */
export function TermsPage() {
  const { supportEmail } = useRuntimeConfig();
  const { entity } = useLegalEntity();
  return (
    <LegalPage
      title="Terms of Service"
      href={paths.terms.href}
      summary={
        <p>
          These terms are the agreement between you and {entity.name} ({entity.address}, {entity.registration}
          ), which runs Headshot Studio. By creating an account or buying credits you accept them, together
          with the <TextLink to={paths.privacy.href}>Privacy Policy</TextLink> and the{' '}
          <TextLink to={paths.refunds.href}>Refund Policy</TextLink>.
        </p>
      }
    >
      <LegalSection id="service" title="The service">
        <p>
          Headshot Studio makes professional headshots from photos you upload, using AI image generation. You
          pay with credits: a generation of {HEADSHOTS_PER_GENERATION} headshots costs {generationCost()}{' '}
          credits ({generationCost({ resolution: 'high' })} at high resolution), and a new account receives{' '}
          {SIGNUP_BONUS_CREDITS} free credits once per person. The results are AI-generated images: they are
          meant to look like you, and we check that they do, but they are not photographs and may differ from
          you in details.
        </p>
      </LegalSection>

      <LegalSection id="account" title="Your account">
        <LegalList>
          <li>You must be at least 18 years old and give an e-mail address you can receive mail at.</li>
          <li>
            One account per person. Keep your password to yourself; you are responsible for your account.
          </li>
          <li>You can delete your account at any time from your dashboard.</li>
        </LegalList>
      </LegalSection>

      <LegalSection id="your-photos" title="Your photos">
        <LegalList>
          <li>
            Upload only photos of yourself, that you took or have the right to use. Never upload photos of
            another person, or of anyone under 18.
          </li>
          <li>
            You keep every right in your photos. You allow us to store and process them, and to send them to
            our image provider, only to make and check your headshots, as the Privacy Policy describes.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="your-headshots" title="Your headshots">
        <p>
          The headshots you create are yours to use for any lawful purpose, personal or commercial, including
          profiles, résumés, websites and print. We claim no rights in them and do not use them for anything
          but showing them to you. We keep them for the period the Privacy Policy states; download the ones
          you want to keep.
        </p>
      </LegalSection>

      <LegalSection id="acceptable-use" title="Acceptable use">
        <p>You may not use Headshot Studio to:</p>
        <LegalList>
          <li>create images of someone else, impersonate anyone, or deceive people about who you are;</li>
          <li>create sexual, violent, hateful or otherwise unlawful images;</li>
          <li>get around credits, limits or security, or use the service through automated means.</li>
        </LegalList>
        <p>We may suspend an account that breaks these rules, and refuse or stop a generation that does.</p>
      </LegalSection>

      <LegalSection id="payments" title="Credits and payments">
        <LegalList>
          <li>
            Prices are shown in US dollars on the <TextLink to={paths.pricing.href}>pricing page</TextLink>.
            Each purchase is a one-time payment, never a subscription.
          </li>
          <li>Payments are processed by Stripe. Credits are added as soon as the payment succeeds.</li>
          <li>
            Credits do not expire while your account exists. They have no cash value and cannot be
            transferred.
          </li>
          <li>
            Refunds follow the <TextLink to={paths.refunds.href}>Refund Policy</TextLink>. If a payment is
            refunded or disputed, the credits it bought are taken back.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="availability" title="Availability and changes">
        <p>
          We work to keep Headshot Studio available and your data safe, but we cannot promise it will always
          be available or free of errors. We may change the service and these terms; we tell you by e-mail
          before a change that affects you, and the date at the top shows the current version.
        </p>
      </LegalSection>

      <LegalSection id="liability" title="Liability">
        <p>
          The service is provided as it is. As far as the law allows, our total liability to you is limited to
          what you paid us in the 12 months before the claim, and we are not liable for indirect losses.
          Nothing in these terms limits liability that cannot be limited by law, or your rights as a consumer.
        </p>
      </LegalSection>

      <LegalSection id="law" title="Governing law">
        <p>
          These terms are governed by the law of {entity.jurisdiction}. If you are a consumer, you also keep
          the protection of the law of the country where you live.
        </p>
      </LegalSection>

      <LegalSection id="contact" title="Contact">
        <p>
          Questions about these terms:{' '}
          <a className="font-medium text-brand-700 underline" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
