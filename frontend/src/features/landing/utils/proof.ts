import type { LucideIcon } from 'lucide-react';
import { CalendarClock, Gauge, Repeat, RotateCcw, ScanFace, ScanSearch, Undo2 } from 'lucide-react';
import { CREDIT_PACKS } from '../../../../../functions/domain/packs';
import { CREDITS_PER_HEADSHOT } from '../../../../../functions/domain/credits';
import { DEFAULT_LIKENESS_THRESHOLD } from '../../../../../functions/domain/likeness';
import { HEADSHOT_RETENTION_DAYS, UPLOAD_RETENTION_DAYS } from '../../../../../functions/domain/retention';
import { HEADSHOTS_PER_GENERATION } from '../../../../../functions/domain/slots';
import { formatDays } from '../../../lib/format-period';
import { formatPerCredit } from '../../../lib/format-price';
import { REFUND_POLICY } from '../../../lib/refund-policy';

/*
 * The landing page's proof (docs/product-spec.md §2 "Landing page", issue 35): only what the product keeps by
 * itself, in the spec's words. Every number is read from the rule that enforces it, never typed here: no ratings,
 * reviews, testimonials or customer companies, since the product has none to show with a source.
 */

/** One short fact under the hero's button: a figure and what it counts. */
export interface HeroFact {
  /** A small word before the figure ('from'), if any. */
  prefix?: string;
  value: string;
  label: string;
}

/** The lowest price of one standard headshot over the packs (USD, major units): the cheapest credit's price. */
const LOWEST_HEADSHOT_PRICE =
  Math.min(...CREDIT_PACKS.map((pack) => pack.pricePerCredit)) * CREDITS_PER_HEADSHOT.standard;

/**
 * The hero's three facts: headshots a generation makes (functions/domain/slots.ts), the lowest price of a headshot
 * (functions/domain/packs.ts, the pack cards' "per credit"), and how long uploaded photos are kept
 * (functions/domain/retention.ts, the period the storage's lifecycle rule enforces).
 */
export const HERO_FACTS: readonly HeroFact[] = [
  { value: String(HEADSHOTS_PER_GENERATION), label: 'headshots per generation' },
  { prefix: 'from', value: formatPerCredit(LOWEST_HEADSHOT_PRICE), label: 'per headshot' },
  { value: formatDays(UPLOAD_RETENTION_DAYS), label: 'until your photos are deleted' },
];

/** A promise of the guarantees section, and the icon drawn beside it. */
export interface Guarantee {
  title: string;
  text: string;
  icon: LucideIcon;
}

/**
 * The three guarantees: the likeness gate (functions/domain/likeness.ts, the default delivery threshold the refund
 * policy states too), the automatic refunds (lib/refund-policy.ts, the refund policy's own sentence) and the
 * retention periods (functions/domain/retention.ts).
 */
export const GUARANTEES: readonly Guarantee[] = [
  {
    title: 'Every headshot looks like you',
    text: `Before you see a headshot, our face model compares it with your own photos. Only headshots that match them at least ${DEFAULT_LIKENESS_THRESHOLD}% are delivered.`,
    icon: ScanFace,
  },
  { title: 'No headshot, no charge', text: REFUND_POLICY.automatic, icon: RotateCcw },
  {
    title: 'Your photos are deleted on a schedule',
    text: `Uploaded photos are deleted after ${formatDays(UPLOAD_RETENTION_DAYS)} and headshots ${formatDays(HEADSHOT_RETENTION_DAYS)} after they are made. You can delete all of them yourself at any time.`,
    icon: CalendarClock,
  },
];

/** The likeness section's scale: the delivery threshold on the 0-100 match score, and what each side means. */
export const LIKENESS_SCALE = {
  threshold: DEFAULT_LIKENESS_THRESHOLD,
  caption: 'The match score of a headshot, from 0 to 100%',
  below: `Under ${DEFAULT_LIKENESS_THRESHOLD}%: made again once, refunded if it still falls short`,
  above: `${DEFAULT_LIKENESS_THRESHOLD}% or more: delivered`,
} as const;

/**
 * "How we check likeness", in order: the photo check (functions/domain/photo-checks.ts: no face, several faces,
 * someone else and copies are rejected, the rest warned), the score (the likeness pill on every headshot), the one
 * retry and the refund (docs/decisions/004-likeness-retry-cap.md; the refund policy's "Our likeness guarantee").
 */
export const LIKENESS_STEPS: readonly Guarantee[] = [
  {
    title: 'We check your photos',
    text: 'Every photo you upload is checked before it is used. A photo with no face, several faces or someone else in it is not used; blur, poor light or a small face are pointed out. Each verdict comes with its reasons.',
    icon: ScanSearch,
  },
  {
    title: 'We score every headshot',
    text: 'Our face model compares the face in each new headshot with the faces in your best photos and gives it a match score from 0 to 100%. You see the score on every headshot.',
    icon: Gauge,
  },
  {
    title: 'We make it again, once',
    text: `A headshot that scores under ${DEFAULT_LIKENESS_THRESHOLD}% is made once more, at no cost to you.`,
    icon: Repeat,
  },
  {
    title: 'Or you get your credits back',
    text: 'If the second one also falls short, it is not delivered and its credits come back to your balance. If several fail, usually because the photos show different people, we stop, refund the rest and ask you for other photos.',
    icon: Undo2,
  },
];
