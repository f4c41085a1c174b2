import { cx } from '../../../lib/cx';
import { TRUSTED_BY } from '../utils/content';
import { LandingSection } from './LandingSection';

/** A row of company wordmarks where customers work. Text only: no third-party logos. */
export function TrustedBy() {
  return (
    <LandingSection
      titleId="trusted-title"
      className="border-y border-slate-200 bg-white py-12 [--rendered-height:298px] sm:py-14 sm:[--rendered-height:254px]"
    >
      <h2 id="trusted-title" className="text-center text-sm font-semibold text-slate-600">
        Trusted by professionals at
      </h2>
      <ul className="mt-8 grid grid-cols-2 items-center justify-items-center gap-x-6 gap-y-8 sm:grid-cols-3 lg:grid-cols-6">
        {TRUSTED_BY.map((company) => (
          <li key={company.name} className={cx('text-slate-500 select-none', company.className)}>
            {company.name}
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
