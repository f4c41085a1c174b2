import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AppHeader } from '../../../components/AppHeader';
import { LEGAL_PAGES } from '../../../components/LegalLinks';
import { PricingFooter } from '../../../components/PricingHeader';
import { ButtonLink } from '../../../components/ui/Button';
import { LEGAL_TEXT_EFFECTIVE_DATE } from '../../../config/legal-entity';
import { paths } from '../../../config/paths';
import { canonicalUrl } from '../../../lib/canonical';
import { useLegalEntity } from '../hooks/use-legal-entity';

/** Props of {@link LegalPage}. */
export interface LegalPageProps {
  /** The page's heading and document title, e.g. 'Privacy Policy'. */
  title: string;
  /** Its path (`paths.privacy.href`): the canonical link, and left out of the list of the other policies. */
  href: string;
  /** One paragraph under the heading: what the page covers, in plain words. */
  summary: ReactNode;
  /** The page's sections ({@link LegalSection}). */
  children: ReactNode;
}

const LAST_UPDATED = new Date(`${LEGAL_TEXT_EFFECTIVE_DATE}T00:00:00Z`).toLocaleDateString('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * The frame of the three legal pages (Terms of Service, Privacy Policy, Refund Policy; issue 27 item 7): header with
 * Home and Pricing, the title with its date, a Draft notice while the deployment gives no company details
 * ({@link useLegalEntity}: the pages then print placeholders), the text at a reading width, links to the other two
 * pages, and the footer.
 */
export function LegalPage({ title, href, summary, children }: LegalPageProps) {
  const { draft } = useLegalEntity();
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <title>{`${title} · Headshot Studio`}</title>
      <link rel="canonical" href={canonicalUrl(href)} />
      {/* Not sticky: a page read from top to bottom needs all of its height. */}
      <AppHeader sticky={false}>
        <ButtonLink to={paths.home.href} variant="ghost" size="sm">
          Home
        </ButtonLink>
        <ButtonLink to={paths.pricing.href} variant="ghost" size="sm">
          Pricing
        </ButtonLink>
      </AppHeader>
      <main className="flex-1 px-4 py-10 sm:px-6 sm:py-14">
        <article className="mx-auto max-w-3xl rounded-3xl bg-white p-6 shadow-xs ring-1 ring-slate-200 sm:p-10">
          <h1 className="font-display text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {title}
          </h1>
          <p className="mt-2 text-sm text-slate-600">Last updated {LAST_UPDATED}</p>
          {draft && (
            <p
              role="note"
              className="mt-6 flex gap-3 rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
            >
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>
                Draft: the company details in brackets are placeholders to be completed before launch.
              </span>
            </p>
          )}
          <div className="mt-6 text-base leading-7 text-pretty text-slate-700">{summary}</div>
          <div className="mt-8 space-y-10">{children}</div>
        </article>
        <nav aria-label="Other policies" className="mx-auto mt-8 max-w-3xl">
          <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
            {LEGAL_PAGES.filter((page) => page.href !== href).map((page) => (
              <li key={page.href}>
                <Link
                  to={page.href}
                  className="rounded font-medium text-brand-700 underline hover:text-brand-800"
                >
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </main>
      <PricingFooter />
    </div>
  );
}

/** One section of a legal page: a heading (with an anchor id) and its text. */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4 text-base leading-7 text-slate-700">
      <h2 id={id} className="scroll-mt-20 text-xl font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A bulleted list in a legal page's text. */
export function LegalList({ children }: { children: ReactNode }) {
  return <ul className="list-disc space-y-2 pl-6 marker:text-slate-400">{children}</ul>;
}

/** An inline link to another page of the site, styled as the legal pages' links. */
export function TextLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="rounded font-medium text-brand-700 underline hover:text-brand-800">
      {children}
    </Link>
  );
}
