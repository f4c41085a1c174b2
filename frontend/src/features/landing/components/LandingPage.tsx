import { canonicalUrl } from '../../../lib/canonical';
import { ClosingCta } from './ClosingCta';
import { Gallery } from './Gallery';
import { Guarantees } from './Guarantees';
import { Hero } from './Hero';
import { HowItWorks } from './HowItWorks';
import { LandingFooter } from './LandingFooter';
import { LikenessCheck } from './LikenessCheck';
import { PricingSection } from './PricingSection';
import { TopBar } from './TopBar';
import { landingBuyHref, paths } from '../../../config/paths';

/**
 * The landing page at `/` (docs/product-spec.md §2): every marketing section, top bar to footer. It reads no session
 * itself: the buttons that depend on it do, so the session settling never re-renders the whole page.
 */
export function LandingPage() {
  return (
    <>
      <title>Headshot Studio · Professional AI headshots from your selfies</title>
      <link rel="canonical" href={canonicalUrl(paths.home.href)} />
      <TopBar />
      <main>
        <Hero />
        <Gallery />
        <Guarantees />
        <HowItWorks />
        <LikenessCheck />
        {/* Signed in: straight to checkout. Signed out: sign-in first, then back here, where the purchase resumes. */}
        <PricingSection returnTo={landingBuyHref} />
        <ClosingCta />
      </main>
      <LandingFooter />
    </>
  );
}
