import { LIKENESS_SCALE, LIKENESS_STEPS } from '../utils/proof';
import { LandingSection } from './LandingSection';
import { SectionHeading } from './SectionHeading';

/**
 * "How we check likeness" (docs/product-spec.md §2 "Landing page", issue 35): the delivery threshold on the match
 * score's scale, and the four things that happen between the customer's photos and their headshots, in plain words.
 */
export function LikenessCheck() {
  return (
    <LandingSection
      titleId="likeness-title"
      className="bg-slate-50 py-16 [--rendered-height:1340px] sm:py-24 sm:[--rendered-height:1084px] lg:[--rendered-height:688px]"
    >
      <div className="grid gap-12 lg:grid-cols-[1fr_1.15fr] lg:gap-16">
        <div>
          <SectionHeading id="likeness-title" eyebrow="Likeness check" title="How we check likeness">
            In plain words: what happens between your photos and your headshots.
          </SectionHeading>
          <LikenessScale />
        </div>
        <ol className="relative flex flex-col gap-8">
          {LIKENESS_STEPS.map(({ title, text, icon: Icon }, index) => (
            <li key={title} className="relative flex gap-4 sm:gap-5">
              {/* The line joining the steps' icons, drawn from under each icon to the next one. */}
              {index < LIKENESS_STEPS.length - 1 && (
                <span aria-hidden="true" className="absolute top-12 -bottom-8 left-6 w-px bg-brand-200" />
              )}
              <span className="relative flex size-12 shrink-0 items-center justify-center rounded-2xl bg-white text-brand-700 shadow-sm ring-1 ring-slate-200">
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <div className="pt-1">
                <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-pretty text-slate-600">{text}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </LandingSection>
  );
}

/** The 0-100 % match score as a bar, split at the delivery threshold: made again (then refunded) below, delivered above. */
function LikenessScale() {
  const { threshold, caption, below, above } = LIKENESS_SCALE;
  return (
    <figure className="mt-10 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <figcaption className="text-sm font-semibold text-slate-900">{caption}</figcaption>
      <div aria-hidden="true" className="mt-6">
        <div className="flex h-3 overflow-hidden rounded-full">
          <span className="bg-slate-300" style={{ width: `${threshold}%` }} />
          <span className="flex-1 bg-emerald-500" />
        </div>
        <div className="relative mt-2 h-5 text-xs font-medium text-slate-600">
          <span className="absolute left-0">0%</span>
          <span
            className="absolute -translate-x-1/2 font-semibold text-slate-900"
            style={{ left: `${threshold}%` }}
          >
            {threshold}%
          </span>
          <span className="absolute right-0">100%</span>
        </div>
      </div>
      <ul className="mt-6 flex flex-col gap-3 text-sm text-slate-700">
        <li className="flex items-start gap-3">
          <span aria-hidden="true" className="mt-1.5 size-2.5 shrink-0 rounded-full bg-slate-300" />
          {below}
        </li>
        <li className="flex items-start gap-3">
          <span aria-hidden="true" className="mt-1.5 size-2.5 shrink-0 rounded-full bg-emerald-500" />
          {above}
        </li>
      </ul>
    </figure>
  );
}
