import { GUARANTEES } from '../utils/proof';
import { LandingSection } from './LandingSection';
import { SectionHeading } from './SectionHeading';

/**
 * The three guarantees the service keeps by itself (docs/product-spec.md §2 "Landing page", issue 35): likeness
 * checked, undelivered headshots refunded, photos deleted on a schedule. They stand where invented proof (company
 * names, ratings, testimonials) would: only what the product's own rules enforce.
 */
export function Guarantees() {
  return (
    <LandingSection
      titleId="guarantees-title"
      className="border-y border-slate-200 bg-white py-16 [--rendered-height:1222px] sm:py-24 sm:[--rendered-height:1122px] lg:[--rendered-height:706px]"
    >
      <div className="mx-auto max-w-2xl text-center">
        <SectionHeading
          id="guarantees-title"
          eyebrow="Our guarantees"
          title="What we promise on every generation"
        >
          These are built into how the service works, so they hold for every customer.
        </SectionHeading>
      </div>
      <ul className="mt-12 grid gap-6 lg:grid-cols-3">
        {GUARANTEES.map(({ title, text, icon: Icon }) => (
          <li
            key={title}
            className="flex flex-col rounded-3xl bg-gradient-to-b from-brand-50/70 to-white p-6 ring-1 ring-brand-100 sm:p-8"
          >
            <span className="flex size-12 items-center justify-center rounded-2xl bg-white text-brand-700 shadow-sm ring-1 ring-brand-100">
              <Icon aria-hidden="true" className="size-6" />
            </span>
            <h3 className="mt-6 text-lg font-semibold text-slate-900">{title}</h3>
            <p className="mt-2 text-sm leading-6 text-pretty text-slate-600">{text}</p>
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
