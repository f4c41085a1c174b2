import type { LucideIcon } from 'lucide-react';
import { Download, Palette, Sparkles, Upload } from 'lucide-react';

/**
 * A sample headshot shipped in `public/images/`: an illustrated, made-up person drawn by
 * `scripts/make-sample-images.ts` (no real person is shown, so nothing implies an endorsement).
 */
export interface SampleHeadshot {
  src: string;
  alt: string;
  /** Short style caption shown under the image. */
  label: string;
}

/** The gallery's samples, ordered so neighbouring backgrounds contrast. */
export const SAMPLE_HEADSHOTS: readonly SampleHeadshot[] = [
  {
    src: '/images/headshot-navy-studio.webp',
    alt: 'Illustrated sample headshot: a man in a navy suit and red tie against a pale blue studio backdrop',
    label: 'Navy studio',
  },
  {
    src: '/images/headshot-warm-office.webp',
    alt: 'Illustrated sample headshot: a man with curly hair in a brown jacket in a warm, softly lit office',
    label: 'Warm office',
  },
  {
    src: '/images/headshot-soft-gradient.webp',
    alt: 'Illustrated sample headshot: a woman with long auburn hair in a navy jacket against a pink-to-lilac gradient',
    label: 'Soft gradient',
  },
  {
    src: '/images/headshot-outdoor-green.webp',
    alt: 'Illustrated sample headshot: a bearded man in an olive jacket with green foliage behind him',
    label: 'Outdoor',
  },
  {
    src: '/images/headshot-charcoal-mono.webp',
    alt: 'Illustrated sample headshot in black and white: a woman with a bob and glasses in a dark jacket',
    label: 'Classic mono',
  },
  {
    src: '/images/headshot-cream-studio.webp',
    alt: 'Illustrated sample headshot: a woman with her hair in a bun in a burgundy jacket against a cream studio backdrop',
    label: 'Cream studio',
  },
  {
    src: '/images/headshot-slate-blue.webp',
    alt: 'Illustrated sample headshot: a bald man with glasses and a grey beard in a slate suit and blue tie',
    label: 'Slate blue',
  },
  {
    src: '/images/headshot-teal-modern.webp',
    alt: 'Illustrated sample headshot: a woman with long brown hair in a teal jacket in a bright modern office',
    label: 'Modern teal',
  },
];

/** The "before" photos of the hero illustration. */
export const SAMPLE_SELFIES: readonly { src: string; alt: string }[] = [
  {
    src: '/images/selfie-1.webp',
    alt: 'Casual photo of a man standing in an office, used as an input selfie',
  },
  {
    src: '/images/selfie-2.webp',
    alt: 'Casual photo of a man speaking at a podium, used as an input selfie',
  },
  { src: '/images/selfie-3.webp', alt: 'Casual photo of a man standing in a hall, used as an input selfie' },
];

/** Company names for the trusted-by strip: plain wordmarks, each with its own type treatment. */
export const TRUSTED_BY: readonly { name: string; className: string }[] = [
  { name: 'Northwind', className: 'font-serif text-xl italic font-semibold' },
  { name: 'GLOBEX', className: 'text-lg font-black tracking-tighter' },
  { name: 'Initech', className: 'font-mono text-lg font-bold' },
  { name: 'CONTOSO', className: 'text-base font-semibold tracking-[0.3em]' },
  { name: 'Fabrikam', className: 'text-xl font-bold tracking-tight' },
  { name: 'Lumina Health', className: 'text-lg font-medium tracking-wide' },
];

/** One How-it-works step. */
export interface Step {
  title: string;
  text: string;
  icon: LucideIcon;
}

/** The four steps of docs/product-spec.md §2: upload photos, choose style, AI generates, download. */
export const STEPS: readonly Step[] = [
  {
    title: 'Upload photos',
    text: 'Upload 5-10 photos of yourself from different angles. Selfies are fine: good light helps most.',
    icon: Upload,
  },
  {
    title: 'Choose style',
    text: 'Pick Professional, Business Casual or Creative, then an office, studio, outdoor or gradient background.',
    icon: Palette,
  },
  {
    title: 'AI generates',
    text: 'Our AI studies your features and creates a set of realistic, professional headshots in 2-3 minutes.',
    icon: Sparkles,
  },
  {
    title: 'Download',
    text: 'Favorite the best ones and download them in high resolution for LinkedIn, résumés and profiles.',
    icon: Download,
  },
];

/** A customer quote. */
export interface Testimonial {
  name: string;
  role: string;
  quote: string;
  stars: number;
  /** Avatar background: initials only, no stock faces. */
  avatarClassName: string;
}

/** The three customer testimonials. */
export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: 'Priya Raman',
    role: 'Product Manager',
    quote:
      'I needed a new LinkedIn photo before a job search and had no time for a shoot. Ten selfies later I had a headshot my whole team assumed was from a studio.',
    stars: 5,
    avatarClassName: 'bg-rose-100 text-rose-800',
  },
  {
    name: 'Marcus Chen',
    role: 'Real Estate Agent',
    quote:
      'My listings, business cards and website now all use the same sharp, consistent headshot. It paid for itself with the first client who said I looked professional.',
    stars: 5,
    avatarClassName: 'bg-sky-100 text-sky-800',
  },
  {
    name: 'Sofia Alvarez',
    role: 'UX Designer',
    quote:
      'The Creative style with the gradient background is exactly the look I wanted for my portfolio. Quick, easy, and the results genuinely look like me.',
    stars: 5,
    avatarClassName: 'bg-emerald-100 text-emerald-800',
  },
];

/** The two ratings marketing shows (docs/product-spec.md §1). */
export const RATINGS: readonly { value: string; stars: number; label: string }[] = [
  { value: '4.9/5', stars: 5, label: 'Customer rating' },
  { value: '4.8/5', stars: 5, label: 'Headshot quality' },
];
