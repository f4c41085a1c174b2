import { Quote } from 'lucide-react';
import { StarRating } from '../../../components/ui/StarRating';
import { cx } from '../../../lib/cx';
import { TESTIMONIALS } from '../utils/content';
import { Ratings } from './Ratings';
import { SectionHeading } from './SectionHeading';
import { LandingSection } from './LandingSection';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

/** Three customer testimonials with the overall ratings. */
export function Testimonials() {
  return (
    <LandingSection
      titleId="testimonials-title"
      className="bg-slate-50 py-16 [--rendered-height:1587px] sm:py-24 sm:[--rendered-height:1307px] lg:[--rendered-height:693px]"
    >
      <div className="flex flex-col gap-8 lg:flex-row lg:items-end lg:justify-between">
        <div className="max-w-2xl">
          <SectionHeading
            id="testimonials-title"
            eyebrow="Testimonials"
            title="Loved by professionals everywhere"
          />
        </div>
        <Ratings tone="card" className="gap-4" />
      </div>
      <ul className="mt-12 grid gap-6 lg:grid-cols-3">
        {TESTIMONIALS.map((t) => (
          <li key={t.name}>
            <figure className="flex h-full flex-col rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
              <div className="flex items-center justify-between">
                <StarRating value={t.stars} />
                <Quote aria-hidden="true" className="size-8 text-brand-100" />
              </div>
              <blockquote className="mt-4 flex-1 text-base leading-7 text-slate-700">
                <p>&ldquo;{t.quote}&rdquo;</p>
              </blockquote>
              <figcaption className="mt-6 flex items-center gap-3 border-t border-slate-100 pt-6">
                <span
                  aria-hidden="true"
                  className={cx(
                    'flex size-11 items-center justify-center rounded-full text-sm font-bold',
                    t.avatarClassName,
                  )}
                >
                  {initials(t.name)}
                </span>
                <span>
                  <span className="block font-semibold text-slate-900">{t.name}</span>
                  <span className="block text-sm text-slate-600">{t.role}</span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
