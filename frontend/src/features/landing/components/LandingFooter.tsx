import { Mail } from 'lucide-react';
import { Link } from 'react-router-dom';
import { HomeBrandLink } from '../../../components/HomeBrandLink';
import { LegalLinks } from '../../../components/LegalLinks';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';
import { copyrightHolder } from '../../../config/legal-entity';
import { paths } from '../../../config/paths';

// Read once: a page left open over New Year showing last year's © is harmless.
const YEAR = new Date().getFullYear();

const linkClass = 'rounded text-sm text-slate-300 transition hover:text-white';

/** The site footer: brand, links, support e-mail and copyright holder (the company, from the runtime config). */
export function LandingFooter() {
  const { supportEmail, legalEntity } = useRuntimeConfig();
  return (
    <footer className="render-when-near bg-slate-950 text-slate-300 [--rendered-height:573px] sm:[--rendered-height:430px] lg:[--rendered-height:329px]">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="flex flex-col gap-10 md:flex-row md:items-start md:justify-between">
          <div className="max-w-sm">
            <HomeBrandLink className="-m-1 inline-block rounded-lg p-1" tone="light" />
            <p className="mt-4 text-sm leading-6 text-slate-400">
              Professional AI headshots from your selfies, for LinkedIn, résumés and professional profiles.
            </p>
          </div>
          <div className="flex flex-wrap gap-x-16 gap-y-10">
            <nav aria-label="Footer">
              <h2 className="text-sm font-semibold text-white">Product</h2>
              <ul className="mt-4 space-y-3">
                <li>
                  <Link to={paths.pricing.href} className={linkClass}>
                    Pricing
                  </Link>
                </li>
                <li>
                  <Link to={paths.dashboard.href} className={linkClass}>
                    Dashboard
                  </Link>
                </li>
              </ul>
            </nav>
            <nav aria-label="Legal">
              <h2 className="text-sm font-semibold text-white">Legal</h2>
              <LegalLinks className="mt-4 space-y-3" linkClassName={linkClass} />
            </nav>
            <div>
              <h2 className="text-sm font-semibold text-white">Support</h2>
              <a
                href={`mailto:${supportEmail}`}
                className={`${linkClass} mt-4 inline-flex items-center gap-2 [overflow-wrap:anywhere]`}
              >
                <Mail aria-hidden="true" className="size-4 shrink-0" />
                {supportEmail}
              </a>
            </div>
          </div>
        </div>
        <p className="mt-12 border-t border-slate-800 pt-8 text-sm text-slate-400">
          © {YEAR} {copyrightHolder(legalEntity)}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
