/**
 * What each OpenAI image model takes on `POST /v1/images/edits`, as OpenAI documents and enforces it on 2026-11-26
 * (docs/openai-image-models.md has the same table with every source). The adapter sends only what the configured
 * model takes; the local OpenAI stand-in refuses everything else with OpenAI's own error bodies; the timeouts and the
 * cost estimate of `npm run check:provider` read the worst cases and prices from here.
 *
 * Sources (cited by key in each entry):
 * - `sdk`: the `openai` npm package 7.57.0 (2026-11-13), `resources/images.d.ts` — generated from OpenAI's API
 *   reference (https://developers.openai.com/api/reference/resources/images/methods/edit): `input_fidelity`
 *   "Supports `high` and `low` on `gpt-image-1.5`; `gpt-image-1-mini` supports only `low`. For `gpt-image-2`, omit this
 *   parameter"; `quality` "`gpt-image-2.5-sunburst` and `gpt-image-2.5-flare` … also support `xhigh` and `max`"; up to
 *   16 images; `n` 1-10; `output_compression` only with `webp`/`jpeg`; `gpt-image-1` "was shut down on October 23, 2026".
 * - `deprecations`: https://developers.openai.com/api/docs/deprecations — `gpt-image-1-mini`, `gpt-image-1.5`
 *   (+ `-2025-12-16`) and `chatgpt-image-latest` shut down on Dec 1, 2026; replacement `gpt-image-2.6-sunburst` or
 *   `gpt-image-2.6-flare`.
 * - `fidelity-400`: OpenAI's 400 `invalid_input_fidelity_model` for `gpt-image-2` (pydantic/pydantic-ai#5413,
 *   vulca-org/vulca-visual-control-sdk#12); openai/openai-python#3919 ("unsupported models require omission");
 *   openai/openai-cookbook#2622 (gpt-image-2 has input fidelity disabled: it always reads inputs at high fidelity).
 * - `quality-400`: `xhigh`/`max` on GPT Image 2 or 1.5 is a 400 (scenario-labs/skills#111); 2.5 members take
 *   "prompt wording only" for source fidelity, 1.5 is "the one member with a fidelity dial".
 * - `images-2.6`: Images 2.6 release, 2026-11-04 (docs.apiyi.com/en/news/gpt-image-2-6-launch, apidog.com/blog/
 *   gpt-image-2-6-api): quality `low|medium|high|xhigh|max|auto`, output PNG (default), JPEG, WebP, GIF, SVG; same
 *   token prices as 2.5 ($8/M image input, $30/M image output); "50% faster" than 2.5; Flare low in about 6 s;
 *   Sunburst keeps people and details consistent across edits at medium and high.
 * - `images-2.5`: OpenGradient/tee-gateway#162 quoting OpenAI's model pages (Flare: 50% lower latency than
 *   gpt-image-2, better reference-photo fidelity; Sunburst: most capable for edits); price ladder per quality on a
 *   1024² image 2:3:12:20:45 against GPT Image 2's 2:12:45 for low/medium/high (scenario-labs/skills#111).
 * - `pricing-guide`: https://developers.openai.com/api/docs/guides/image-generation#cost-and-latency per-image
 *   estimates at 1024×1024 (gpt-image-2: $0.006 / $0.053 / $0.211, calesthio/OpenMontage#256,
 *   theopenco/llmgateway#2105; gpt-image-1 and 1.5 from Portkey-AI/models pricing/openai.json).
 * - `background`: the SDK 7.57.0 `ImageEditParams.background` ("`gpt-image-2.5-sunburst` and `gpt-image-2.5-flare` …
 *   support `opaque` and `transparent` backgrounds … For `gpt-image-2` and `gpt-image-2-2026-04-21`, this support is in
 *   preview. When using `transparent`, set the output format to `png` or `webp`"; openai/openai-python#3703, 2026-08-20,
 *   turned "not supported" into "preview"); before that gpt-image-2 answered 400 "Transparent background is not
 *   supported for this model." (`invalid_value`, `image_generation_user_error`: gaoren002/GPT2Image-Pro#2,
 *   Bike4Mind/bike4mind#885); the 2.6 models take it (the GPT Image 2.6 prompting guide, https://developers.openai.com/
 *   api/docs/guides/image-prompting?model=gpt-image-2.6: "Both support image generation, editing, and transparent
 *   backgrounds"), and refuse it only with JPEG output, 400 "Transparent background is not supported for JPEG output
 *   format" (measured on both 2.6 models, docs.apiyi.com/en/faq/gpt-image-output-format-background, 2026-11-12).
 * - `complexity`: a 2.6 parameter (`low|medium|high`, "Computation spent planning the image, independently of
 *   rendering quality", the SDK; `high` when omitted, apidog.com/blog/gpt-image-2-6-api; `low` for "focused edits,
 *   simple compositions", docs.apiyi.com/api-capabilities/gpt-image-2/gpt-image-2-6; "at no extra charge",
 *   docs.laozhang.ai/en/api-capabilities/gpt-image-2-6).
 * - `streaming`: `stream` and `partial_images` 0-3 on the edits endpoint ("the final image may be sent before the full
 *   number of partial images", the SDK); "each partial image will incur an additional 100 image output tokens" (the
 *   image generation guide, https://developers.openai.com/api/docs/guides/image-generation#partial-images-cost).
 * - `latency`: gpt-image-2 `high` edits take over two minutes (vercel-labs/ai-cli#63), 143-161 s measured
 *   (garrytan/gstack#1586), up to 235 s at 1536×1024 (help.apiyi.com/en?p=30724); gpt-image-1 `high` 60-180 s,
 *   occasionally 200 s+ (garrytan/gstack#1638); 2.5 Sunburst `high` 33-70 s (yukkcat/chatgpt2api#34).
 */

/** A `quality` value of the edits endpoint. */
export type ImageQuality = 'low' | 'medium' | 'high' | 'xhigh' | 'max' | 'auto';
/** An `output_format` value. */
export type ImageOutputFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'svg';
/** An `input_fidelity` value. */
export type InputFidelity = 'low' | 'high';
/** A `complexity` value (2.6 models only). */
export type ImageComplexity = 'low' | 'medium' | 'high';
/**
 * Whether a model makes `background: transparent`: `supported`; `preview` (documented as a preview: the product does
 * not rely on it and cuts the person out itself, docs/decisions/025-openai-parameters.md); `refused` (OpenAI's 400).
 */
export type TransparentBackground = 'supported' | 'preview' | 'refused';

/** One OpenAI image model's edit contract. */
export interface OpenAiImageModel {
  /** The model id sent as `model`. */
  id: string;
  /** `input_fidelity` values it takes; empty: OpenAI answers 400 when the parameter is sent at all. */
  inputFidelity: readonly InputFidelity[];
  /** `quality` values it takes. */
  qualities: readonly ImageQuality[];
  /**
   * `standard`: `1024x1024`, `1536x1024`, `1024x1536`, `auto` only; `flexible`: also any `WxH` with both sides
   * multiples of 16, long edge ≤ 3840, aspect ratio within 1:3-3:1, 655,360-8,294,400 pixels (`sdk`).
   */
  sizes: 'standard' | 'flexible';
  /** `output_format` values it takes (PNG is the default when none is asked). */
  outputFormats: readonly ImageOutputFormat[];
  /** `background: transparent` (`background`); `opaque` and `auto` every GPT Image model takes. */
  transparentBackground: TransparentBackground;
  /** Whether it takes `complexity` (`complexity`: the 2.6 models). */
  takesComplexity: boolean;
  /** Most `partial_images` with `stream: true` (`streaming`: 3 on every GPT Image model). */
  maxPartialImages: number;
  /** Largest `n` (images per call). */
  maxN: number;
  /** Most `image[]` parts per call. */
  maxInputImages: number;
  /** First day (UTC, `YYYY-MM-DD`) OpenAI refuses the model; `null` when no shutdown is announced. */
  shutdownDate: string | null;
  /** Estimated USD per output image at 1024×1024, by quality (`auto` is priced as `medium`). */
  usdPerImage: Partial<Record<ImageQuality, number>>;
  /** Estimated USD per 1024² reference image sent (image input tokens, about 1,024 at $8 per million). */
  usdPerInputImage: number;
  /** Documented worst-case seconds of one 1024×1024 edit, by quality (`auto` as `high`). */
  worstCaseSeconds: Partial<Record<ImageQuality, number>>;
  /** Keys of the sources above the facts come from. */
  sources: readonly string[];
}

const STANDARD_QUALITIES = ['low', 'medium', 'high', 'auto'] as const;
const EXTENDED_QUALITIES = ['low', 'medium', 'high', 'xhigh', 'max', 'auto'] as const;
const RASTER_FORMATS = ['png', 'jpeg', 'webp'] as const;

/** What every model takes and costs alike: `n` 1-10, up to 16 images (`sdk`), $0.008 per reference image. */
const EVERY_MODEL = {
  maxN: 10,
  maxInputImages: 16,
  usdPerInputImage: 0.008,
  maxPartialImages: 3,
  takesComplexity: false,
  transparentBackground: 'supported',
} as const;

/** The GPT Image 1 generation (1, 1-mini, 1.5, chatgpt-image-latest): standard sizes and qualities, raster output. */
const GPT_IMAGE_1_GENERATION = {
  ...EVERY_MODEL,
  qualities: STANDARD_QUALITIES,
  sizes: 'standard',
  outputFormats: RASTER_FORMATS,
} as const;

/** GPT Image 1's and 1.5's worst cases (`latency`: 60-180 s, occasionally 200 s+ at `high`). */
const GPT_IMAGE_1_WORST_CASE = { low: 60, medium: 120, high: 210 } as const;

/**
 * GPT Image 2 and its successors: any size within the flexible bounds, no `input_fidelity`, no shutdown announced.
 * The 400 for `input_fidelity` is proven for `gpt-image-2` only (`fidelity-400`: it always reads inputs at high
 * fidelity); for 2.5 and 2.6 it is inferred (the API reference names no fidelity for them, and the 2.5 members take
 * "prompt wording only", `quality-400`): the adapter never sends it, the stand-in refuses it likewise.
 */
const GPT_IMAGE_2_GENERATION = {
  ...EVERY_MODEL,
  inputFidelity: [],
  sizes: 'flexible',
  outputFormats: RASTER_FORMATS,
  shutdownDate: null,
  // A preview on gpt-image-2 since 2026-08-20 (`background`); 2.5 and 2.6 override it.
  transparentBackground: 'preview',
} as const;

/**
 * GPT Image 2.5 and 2.6: the extended qualities (`xhigh`, `max`) at GPT Image 2's token rates, the 2:3:12:20:45
 * ladder anchored at its high ($0.211).
 */
const GPT_IMAGE_2_5_AND_LATER = {
  ...GPT_IMAGE_2_GENERATION,
  transparentBackground: 'supported',
  qualities: EXTENDED_QUALITIES,
  usdPerImage: { low: 0.009, medium: 0.014, high: 0.056, xhigh: 0.094, max: 0.211 },
} as const;

function snapshot(base: OpenAiImageModel, id: string): OpenAiImageModel {
  return { ...base, id };
}

const gptImage1: OpenAiImageModel = {
  ...GPT_IMAGE_1_GENERATION,
  id: 'gpt-image-1',
  inputFidelity: ['low', 'high'],
  usdPerInputImage: 0.01,
  shutdownDate: '2026-10-23',
  usdPerImage: { low: 0.011, medium: 0.042, high: 0.167 },
  worstCaseSeconds: GPT_IMAGE_1_WORST_CASE,
  sources: ['sdk', 'pricing-guide', 'latency'],
};

const gptImage15: OpenAiImageModel = {
  ...GPT_IMAGE_1_GENERATION,
  id: 'gpt-image-1.5',
  inputFidelity: ['low', 'high'],
  shutdownDate: '2026-12-01',
  usdPerImage: { low: 0.009, medium: 0.034, high: 0.133 },
  worstCaseSeconds: GPT_IMAGE_1_WORST_CASE,
  sources: ['sdk', 'deprecations', 'pricing-guide', 'latency'],
};

const gptImage1Mini: OpenAiImageModel = {
  ...GPT_IMAGE_1_GENERATION,
  id: 'gpt-image-1-mini',
  inputFidelity: ['low'],
  usdPerInputImage: 0.0025,
  shutdownDate: '2026-12-01',
  usdPerImage: { low: 0.005, medium: 0.011, high: 0.036 },
  worstCaseSeconds: { low: 45, medium: 90, high: 150 },
  sources: ['sdk', 'deprecations', 'pricing-guide'],
};

const chatgptImageLatest: OpenAiImageModel = {
  ...GPT_IMAGE_1_GENERATION,
  // "follows the same input constraints as GPT image models" (sdk); it is not named among the input_fidelity models.
  id: 'chatgpt-image-latest',
  inputFidelity: [],
  shutdownDate: '2026-12-01',
  // Priced as GPT Image 1.5: no estimate of its own is among the sources.
  usdPerImage: gptImage15.usdPerImage,
  worstCaseSeconds: GPT_IMAGE_1_WORST_CASE,
  sources: ['sdk', 'deprecations'],
};

const gptImage2: OpenAiImageModel = {
  ...GPT_IMAGE_2_GENERATION,
  id: 'gpt-image-2',
  qualities: STANDARD_QUALITIES,
  usdPerImage: { low: 0.006, medium: 0.053, high: 0.211 },
  worstCaseSeconds: { low: 60, medium: 150, high: 240 },
  sources: ['sdk', 'fidelity-400', 'quality-400', 'pricing-guide', 'latency'],
};

const gptImage25Sunburst: OpenAiImageModel = {
  ...GPT_IMAGE_2_5_AND_LATER,
  id: 'gpt-image-2.5-sunburst',
  worstCaseSeconds: { low: 40, medium: 80, high: 120, xhigh: 180, max: 240 },
  sources: ['sdk', 'quality-400', 'images-2.5', 'latency'],
};

const gptImage25Flare: OpenAiImageModel = {
  ...gptImage25Sunburst,
  id: 'gpt-image-2.5-flare',
  // "50% lower latency than gpt-image-2" (images-2.5).
  worstCaseSeconds: { low: 30, medium: 75, high: 120, xhigh: 180, max: 240 },
};

const gptImage26Sunburst: OpenAiImageModel = {
  ...GPT_IMAGE_2_5_AND_LATER,
  id: 'gpt-image-2.6-sunburst',
  // GIF and SVG are gated (`sdk`: "Requires access to the GIF preview", "SVG output requires … project access"); the
  // product never asks them, and what OpenAI answers without access is unconfirmed, so the stand-in accepts them.
  outputFormats: [...RASTER_FORMATS, 'gif', 'svg'],
  // "50% faster" than 2.5 (images-2.6); kept at 2.5's high bound until measured, so a slow day is not a timeout.
  worstCaseSeconds: { low: 30, medium: 60, high: 120, xhigh: 150, max: 210 },
  takesComplexity: true,
  sources: [
    'sdk',
    'deprecations',
    'images-2.6',
    'images-2.5',
    'latency',
    'background',
    'complexity',
    'streaming',
  ],
};

const gptImage26Flare: OpenAiImageModel = {
  ...gptImage26Sunburst,
  id: 'gpt-image-2.6-flare',
  worstCaseSeconds: { low: 15, medium: 45, high: 90, xhigh: 120, max: 180 },
};

/** Every OpenAI image model the edits endpoint knows (shut-down ones included: the stand-in refuses them by date). */
export const OPENAI_IMAGE_MODELS: readonly OpenAiImageModel[] = [
  gptImage1,
  gptImage1Mini,
  gptImage15,
  snapshot(gptImage15, 'gpt-image-1.5-2025-12-16'),
  chatgptImageLatest,
  gptImage2,
  snapshot(gptImage2, 'gpt-image-2-2026-04-21'),
  gptImage25Sunburst,
  snapshot(gptImage25Sunburst, 'gpt-image-2.5-sunburst-2026-09-08'),
  gptImage25Flare,
  snapshot(gptImage25Flare, 'gpt-image-2.5-flare-2026-09-08'),
  gptImage26Sunburst,
  gptImage26Flare,
];

/** The default OPENAI_IMAGE_MODEL (docs/decisions/001-openai-image-model.md). */
export const DEFAULT_OPENAI_IMAGE_MODEL = 'gpt-image-2.6-sunburst';
/** The default OPENAI_IMAGE_QUALITY: the tier that keeps small detail (docs/decisions/001-openai-image-model.md). */
export const DEFAULT_OPENAI_IMAGE_QUALITY: ImageQuality = 'high';
/** Parameters every GPT Image model takes (what is sent to a model this table does not know). */
export const UNIVERSAL_QUALITIES: readonly ImageQuality[] = STANDARD_QUALITIES;

/** The table entry of a model id, or `undefined` for a model this table does not know. */
export function openAiImageModel(id: string): OpenAiImageModel | undefined {
  return OPENAI_IMAGE_MODELS.find((m) => m.id === id);
}

/** Whether `model` is shut down on the UTC day of `at` (OpenAI refuses it from its shutdown date on). */
export function isShutDown(model: OpenAiImageModel, at: Date): boolean {
  return model.shutdownDate !== null && at.toISOString().slice(0, 10) >= model.shutdownDate;
}

/** The cheapest quality a model takes (`low` on every model in the table). */
export function lowestQuality(model: OpenAiImageModel | undefined): ImageQuality {
  return (model?.qualities ?? UNIVERSAL_QUALITIES).find((q) => q !== 'auto') ?? 'low';
}

/** Longest documented edit in seconds for `quality` (`auto` as `high`); the table's highest for an unknown model. */
export function worstCaseSeconds(model: OpenAiImageModel | undefined, quality: ImageQuality): number {
  if (!model) return Math.max(...OPENAI_IMAGE_MODELS.map((m) => worstCaseSeconds(m, 'high')));
  const tier = quality === 'auto' ? 'high' : quality;
  return model.worstCaseSeconds[tier] ?? Math.max(...Object.values(model.worstCaseSeconds));
}

/**
 * Estimated USD of one edit: the output image at `quality` (`auto` as `medium`) plus `inputImages` references.
 * `undefined` for a model the table does not know.
 *
 * @param outputScale the output's pixels in 1024² images (1.25 for 1024×1280): OpenAI bills output tokens, which
 *   grow with the pixels (domain/headshot-variants.ts `megapixelFactor`); default 1
 */
export function estimatedEditUsd(
  model: OpenAiImageModel | undefined,
  quality: ImageQuality,
  inputImages: number,
  outputScale = 1,
): number | undefined {
  if (!model) return undefined;
  const output = model.usdPerImage[quality === 'auto' ? 'medium' : quality];
  return output === undefined ? undefined : output * outputScale + inputImages * model.usdPerInputImage;
}
