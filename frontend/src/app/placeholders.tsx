import { CreditCard, Images, ReceiptText, WandSparkles } from 'lucide-react';
import { ButtonLink } from '../components/ui/Button';
import { CreditsBadge, SignOutButton } from '../features/auth';
import { PageFrame } from './PageFrame';
import { StatusPanel } from './StatusPanel';

/*
 * Interim screens for routes whose features land in later tasks. Each one says what the screen is for and offers a
 * way back, so a visitor who arrives early sees a deliberate page rather than a blank one.
 */

/** The signed-in header items of the protected placeholders: credit count (links to /pricing) and sign-out. */
function AccountActions() {
  return (
    <>
      <CreditsBadge />
      <SignOutButton />
    </>
  );
}

/** `/generator`: the four-step headshot wizard. */
export function GeneratorPlaceholder() {
  return (
    <PageFrame title="Create headshots" headerActions={<AccountActions />}>
      <StatusPanel
        icon={WandSparkles}
        eyebrow="Headshot generator"
        title="Create your headshots"
        actions={<ButtonLink to="/">Back to home</ButtonLink>}
      >
        Upload 5-10 photos, choose a style and a background, and your professional headshots are ready in 2-3
        minutes. The generator opens here.
      </StatusPanel>
    </PageFrame>
  );
}

/** `/dashboard`: the user's gallery of headshots. */
export function DashboardPlaceholder() {
  return (
    <PageFrame title="Dashboard" headerActions={<AccountActions />}>
      <StatusPanel
        icon={Images}
        eyebrow="Dashboard"
        title="Your headshots"
        actions={
          <>
            <ButtonLink to="/generator">Generate headshots</ButtonLink>
            <ButtonLink to="/" variant="secondary">
              Back to home
            </ButtonLink>
          </>
        }
      >
        Every headshot you generate is kept here to favorite and download in high resolution.
      </StatusPanel>
    </PageFrame>
  );
}

/** `/pricing`: the credit pack page. */
export function PricingPlaceholder() {
  return (
    <PageFrame title="Pricing">
      <StatusPanel
        icon={CreditCard}
        eyebrow="Pricing"
        title="Choose Your Credit Pack"
        actions={
          <>
            <ButtonLink to={{ pathname: '/', hash: '#pricing' }}>Compare packs</ButtonLink>
            <ButtonLink to="/" variant="secondary">
              Back to home
            </ButtonLink>
          </>
        }
      >
        Each photo costs 1 credit. New users get 6 free credits to try the service!
      </StatusPanel>
    </PageFrame>
  );
}

/** Any path starting with `/success`: the payment result page Stripe Checkout returns to. */
export function PaymentResultPlaceholder() {
  return (
    <PageFrame title="Payment">
      <StatusPanel
        icon={ReceiptText}
        eyebrow="Payment"
        title="Payment result"
        actions={
          <>
            <ButtonLink to="/dashboard">Go to Dashboard</ButtonLink>
            <ButtonLink to="/pricing" variant="secondary">
              View pricing
            </ButtonLink>
          </>
        }
      >
        After checkout, this page confirms your payment and shows your new credit balance.
      </StatusPanel>
    </PageFrame>
  );
}
