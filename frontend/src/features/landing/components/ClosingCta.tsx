import { ArrowRight } from 'lucide-react';
import { GetStartedButton } from './GetStartedButton';
import { LandingSection } from './LandingSection';
import { SIGNUP_BONUS_CREDITS } from '../../../../../functions/domain/credits';
import { generationTime } from '../../../lib/generation-time';

/** The closing call to action before the footer. */
export function ClosingCta() {
  return (
    <LandingSection
      titleId="cta-title"
      column={false}
      className="px-4 pb-16 [--rendered-height:452px] sm:px-6 sm:pb-24 sm:[--rendered-height:488px] lg:px-8"
    >
      <div className="relative isolate mx-auto max-w-7xl overflow-hidden rounded-[2rem] bg-brand-700 px-6 py-14 text-center shadow-xl sm:px-12 sm:py-20">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_20rem_at_20%_0%,var(--color-brand-500),transparent_70%),radial-gradient(30rem_20rem_at_90%_110%,var(--color-brand-900),transparent_70%)]"
        />
        <h2
          id="cta-title"
          className="mx-auto max-w-2xl font-display text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl"
        >
          Your next headshot is a few selfies away
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-pretty text-brand-100">
          Start with {SIGNUP_BONUS_CREDITS} free credits. Upload your photos, pick a style, and get your
          professional headshots. {generationTime()}.
        </p>
        <GetStartedButton variant="inverse" size="lg" className="mt-8">
          Get started now
          <ArrowRight aria-hidden="true" className="size-5" />
        </GetStartedButton>
      </div>
    </LandingSection>
  );
}
