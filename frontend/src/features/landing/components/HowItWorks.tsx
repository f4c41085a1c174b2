import { STEPS } from '../utils/content';
import { SectionHeading } from './SectionHeading';
import { LandingSection } from './LandingSection';

/** The four How-it-works steps, numbered, each with an icon. */
export function HowItWorks() {
  return (
    <LandingSection
      titleId="how-title"
      className="py-16 [--rendered-height:1324px] sm:py-24 sm:[--rendered-height:828px] lg:[--rendered-height:600px]"
    >
      <div className="mx-auto max-w-2xl text-center">
        <SectionHeading id="how-title" eyebrow="How it works" title="Four steps to your new headshot">
          No appointments and no equipment: everything happens in your browser.
        </SectionHeading>
      </div>
      <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map((step, index) => {
          const Icon = step.icon;
          return (
            <li
              key={step.title}
              className="relative rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md"
            >
              <div className="flex items-center justify-between">
                <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                {/* The big step number is decoration (the heading says "Step n"): drawn as generated content, it
                      is not text, so its deliberately faint colour is not held to text contrast. */}
                <span
                  aria-hidden="true"
                  data-step={String(index + 1).padStart(2, '0')}
                  className="font-display text-4xl font-bold text-slate-200 before:content-[attr(data-step)]"
                />
              </div>
              <h3 className="mt-6 text-lg font-semibold text-slate-900">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{step.text}</p>
            </li>
          );
        })}
      </ol>
    </LandingSection>
  );
}
