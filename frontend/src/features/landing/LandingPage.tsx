import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Pack } from '../pricing/api';
import { ClosingCta } from './ClosingCta';
import { Gallery } from './Gallery';
import { Hero } from './Hero';
import { HowItWorks } from './HowItWorks';
import { LandingFooter } from './LandingFooter';
import { PricingSection } from './PricingSection';
import { Testimonials } from './Testimonials';
import { TopBar } from './TopBar';
import { TrustedBy } from './TrustedBy';
import { useGetStarted } from './use-get-started';

/** The landing page at `/` (docs/product-spec.md §2): every marketing section, top bar to footer. */
export function LandingPage() {
  const getStarted = useGetStarted();
  const navigate = useNavigate();
  // Buying happens on /pricing, which knows about sign-in and checkout.
  const selectPack = useCallback((_pack: Pack) => void navigate('/pricing'), [navigate]);

  return (
    <>
      <title>Headshot Studio · Professional AI headshots from your selfies</title>
      <TopBar onAccountClick={getStarted} />
      <main>
        <Hero onGetStarted={getStarted} />
        <Gallery />
        <TrustedBy />
        <HowItWorks />
        <Testimonials />
        <PricingSection onSelectPack={selectPack} />
        <ClosingCta onGetStarted={getStarted} />
      </main>
      <LandingFooter />
    </>
  );
}
