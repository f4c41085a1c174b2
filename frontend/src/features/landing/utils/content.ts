import type { LucideIcon } from 'lucide-react';
import { Download, Palette, Sparkles, Upload } from 'lucide-react';
import { generationTime } from '../../../lib/generation-time';

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

/**
 * The "before" photos of the hero illustration: drawn like the headshots (the same made-up person in three settings),
 * so their descriptions say they are illustrations.
 */
export const SAMPLE_SELFIES: readonly { src: string; alt: string }[] = [
  { src: '/images/selfie-1.webp', alt: 'Illustrated everyday photo: a man standing in an office' },
  { src: '/images/selfie-2.webp', alt: 'Illustrated everyday photo: a man speaking at a podium' },
  { src: '/images/selfie-3.webp', alt: 'Illustrated everyday photo: a man standing in a hall' },
];

/** The visible note beside every group of samples: they are drawings, not results of customers (issue 35). */
export const SAMPLES_NOTE = 'Illustrations, not customer photos';

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
    text: `Our AI studies your features and creates a set of realistic, professional headshots. ${generationTime()}.`,
    icon: Sparkles,
  },
  {
    title: 'Download',
    text: 'Favorite the best ones and download them in high resolution for LinkedIn, résumés and profiles.',
    icon: Download,
  },
];
