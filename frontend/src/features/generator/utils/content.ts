import { aboutMinutes } from '../../../lib/generation-time';
import { DEFAULT_OUTFIT, type Outfit } from '../../../../../functions/domain/outfits';

/**
 * The generator wizard's fixed content (docs/product-spec.md §2 "Generator wizard", §9): every user-facing string verbatim, the
 * style and background options as the API spells them, and the example images shipped in
 * `frontend/public/images/styles/` (illustrated portraits drawn by `frontend/scripts/make-sample-images.ts`).
 */

/** Credits under this count are "running low" (docs/product-spec.md §9: low-credit threshold under 6). */
export const LOW_CREDITS_THRESHOLD = 6;
/** Steps of the wizard. */
export const TOTAL_STEPS = 4;

/** A style as `POST /api/generations` spells it. */
export type StyleId = 'professional' | 'business-casual' | 'creative';
/** A background as `POST /api/generations` spells it. */
export type BackgroundId = 'office' | 'studio' | 'outdoor' | 'gradient';

/** An outfit as `POST /api/generations` spells it (functions/domain/outfits.ts). */
export type OutfitId = Outfit;

/** The outfit the wizard starts with: the clothes in the customer's own photos. */
export const DEFAULT_OUTFIT_ID: OutfitId = DEFAULT_OUTFIT;

/** One selectable card of step 2 or step 3. */
export interface WizardOption<Id extends string> {
  id: Id;
  title: string;
  description: string;
  /** Example image under the site root. */
  image: string;
  /** A custom colour's `#rrggbb` (a team's look, issue 37): the card shows the colour instead of an image. */
  swatch?: string;
}

/** Step 2's three style cards (docs/product-spec.md §2), in order. */
export const STYLE_OPTIONS: readonly WizardOption<StyleId>[] = [
  {
    id: 'professional',
    title: 'Professional',
    description: 'Classic business attire',
    image: '/images/styles/style-professional.webp',
  },
  {
    id: 'business-casual',
    title: 'Business Casual',
    description: 'Smart casual look',
    image: '/images/styles/style-business-casual.webp',
  },
  {
    id: 'creative',
    title: 'Creative',
    description: 'Modern and artistic',
    image: '/images/styles/style-creative.webp',
  },
];

/** Step 3's four background cards (docs/product-spec.md §2), in order. */
export const BACKGROUND_OPTIONS: readonly WizardOption<BackgroundId>[] = [
  {
    id: 'office',
    title: 'Office',
    description: 'Professional office setting',
    image: '/images/styles/background-office.webp',
  },
  {
    id: 'studio',
    title: 'Studio',
    description: 'Clean studio background',
    image: '/images/styles/background-studio.webp',
  },
  {
    id: 'outdoor',
    title: 'Outdoor',
    description: 'Natural outdoor setting',
    image: '/images/styles/background-outdoor.webp',
  },
  {
    id: 'gradient',
    title: 'Gradient',
    description: 'Modern gradient background',
    image: '/images/styles/background-gradient.webp',
  },
];

/**
 * Generation error codes of the likeness cap (docs/decisions/004-likeness-retry-cap.md) and of the provider's
 * refusals (018-provider-refusals.md): the photos' headshots kept failing the likeness check, the day's attempts ran
 * out, or the image service kept refusing the photos. The wizard asks for other photos instead of retrying.
 */
export const LIKENESS_STOP_CODES: ReadonlySet<string> = new Set([
  'LIKENESS_MISMATCH',
  'LIKENESS_LIMIT',
  'PHOTOS_REFUSED',
]);

/** The wizard's texts, verbatim from docs/product-spec.md §2, §5 and §8. Functions take the numbers they show. */
export const GENERATOR_TEXT = {
  stepOf: (step: number) => `Step ${step} of ${TOTAL_STEPS}`,
  uploadTitle: 'Upload your photos',
  uploadHint: 'Upload 5-10 photos of yourself from different angles for best results',
  uploadFormats: 'Supports JPG, PNG, HEIC. Max 10 photos.',
  uploadedCount: (n: number, max: number) => `Uploaded photos (${n}/${max})`,
  styleTitle: 'Choose your style',
  backgroundTitle: 'Choose your background',
  runningLow: 'Running low on credits!',
  /** At 0 credits "running low" is not true any more (issue 35 item 6). */
  noCredits: 'No credits left',
  buyMore: 'Buy More',
  buyMoreCredits: 'Buy More Credits',
  /** `cost`: the generation's credits (domain generationCost), here and in the next texts. */
  needCredits: (cost: number, credits: number) =>
    `You need ${cost} credits to generate headshots, but you only have ${credits}.`,
  generate: (cost: number) => `Generate Headshots (${cost} credits)`,
  /** The credits card's line under the balance. */
  generationUses: (cost: number) => `This generation uses ${cost} credits.`,
  generating: 'Generating...',
  insufficient: 'Insufficient Credits',
  insufficientToast: (cost: number, credits: number) =>
    `Insufficient credits! You need ${cost} credits but only have ${credits}.`,
  generatingTitle: 'Generating your headshots',
  analyzing: 'Analyzing your photos...',
  creating: 'Creating professional headshots...',
  almostDone: 'Almost done...',
  /** Under the bar while the generation waits for the image provider: `ahead` = its place in line − 1. */
  inLine: (ahead: number, etaSeconds: number) => {
    const about = aboutMinutes(etaSeconds);
    if (ahead <= 0) return `You're next in line, ${about}`;
    return `You're in line — ${ahead} ${ahead === 1 ? 'generation' : 'generations'} ahead of you, ${about}`;
  },
  mayClose: "You can close this page; we'll e-mail you when your headshots are ready.",
  /** Under the bar while it runs and none is saved yet (the time line above already says they appear one by one). */
  keepOpen: 'You can keep this page open or leave it: your headshots are also saved to your dashboard.',
  ready: 'Your headshots are ready!',
  generateMore: 'Generate More Headshots',
  generationFailed: 'Failed to generate headshots. Please try again.',
  /** Steps 1-3 while the customer's generation runs (any tab or device): one runs at a time. */
  activeTitle: (percent: number) => `Your headshots are being created (${percent}%).`,
  activeBody: 'You can start a new generation as soon as they are ready.',
  activeView: 'See progress',
  /** The likeness cap stopped the generation (the API's `error.message` says why and what was refunded). */
  likenessTitle: "These headshots didn't look like you",
  /** Back to step 1 to choose other photos (the style and background stay). */
  uploadDifferentPhotos: 'Upload different photos',
  /** Step 3, while the photos show different people (`mixed_people`): back to step 1 to remove the others. */
  changePhotos: 'Change photos',
  invalidFiles: 'Please upload valid image files (max 10MB each)',
  tooManyFiles: 'Maximum 10 files allowed. Some files were not added.',
  filesAdded: (n: number) => `${n} ${n === 1 ? 'file' : 'files'} uploaded successfully`,
  notAPhoto: (name: string) => `${name} is not a photo. Use JPG, PNG or HEIC.`,
  tooLarge: (name: string, size: string) => `${name} is ${size}; the limit is 10 MB.`,
  emptyFile: (name: string) => `${name} is empty.`,
  uploadFailed: (n: number) =>
    n === 1 ? '1 photo could not be uploaded.' : `${n} photos could not be uploaded.`,
} as const;

/** Step 2's choice (docs/product-spec.md §2): its heading, the sentence under it and its three style cards. */
export const STYLE_CHOICE = {
  id: 'style-title',
  title: GENERATOR_TEXT.styleTitle,
  intro: 'Pick the look of your headshots: the clothing and the overall feel.',
  name: 'style',
  legend: 'Style',
  options: STYLE_OPTIONS,
  columns: 3,
} as const;

/** Step 3's choice: its heading, the sentence under it and its four background cards. */
export const BACKGROUND_CHOICE = {
  id: 'background-title',
  title: GENERATOR_TEXT.backgroundTitle,
  intro: 'Choose the setting behind you.',
  name: 'background',
  legend: 'Background',
  options: BACKGROUND_OPTIONS,
  columns: 4,
} as const;

/**
 * Step 2's outfit choice (docs/product-spec.md §2 step 2, issue 36): a compact row of choices under the style cards,
 * independent of the style; every label verbatim from the spec.
 */
export const OUTFIT_CHOICE = {
  id: 'outfit-title',
  title: 'Outfit',
  hint: 'What you wear in all 6 headshots. The style sets the overall feel.',
  options: [
    { id: 'own-clothing', label: 'Keep my own clothes' },
    { id: 'suit-and-tie', label: 'Suit and tie' },
    { id: 'blazer', label: 'Blazer' },
    { id: 'shirt', label: 'Shirt' },
    { id: 'knitwear', label: 'Knitwear' },
  ] as const satisfies readonly { id: OutfitId; label: string }[],
} as const;
