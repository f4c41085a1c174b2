import {
  isShutDown,
  openAiImageModel,
  type ImageOutputFormat,
  type OpenAiImageModel,
} from '../../../../functions/domain/openai-image-models';
import { refusals, type OpenAiErrorAnswer } from './errors';

/*
 * The rules of `POST /v1/images/edits`, taken from the model table (functions/domain/openai-image-models.ts, where
 * each fact is cited) and checked in the order OpenAI reports them: the key, the fields the endpoint defines, the
 * model (known, not shut down by the request's date), the images, the prompt, then each parameter against the model.
 */

/** Form fields the edits endpoint defines (the `openai` SDK 7.57.0's `ImageEditParams`, OpenAI's API reference). */
export const EDIT_FIELDS = new Set([
  'image',
  'image[]',
  'prompt',
  'background',
  'complexity',
  'frame_count',
  'frame_duration_ms',
  'input_fidelity',
  'markup',
  'mask',
  'model',
  'n',
  'output_compression',
  'output_format',
  'partial_images',
  'quality',
  'response_format',
  'safety_identifier',
  'size',
  'stream',
  'svg[model]',
  'svg[reasoning][effort]',
  'user',
]);

/** One uploaded image part. */
export interface ImagePart {
  name: string;
  /** The declared content type. */
  type: string;
  bytes: Buffer;
}

/** A request the validator accepted, with what the answer needs. */
export interface ValidEdit {
  model: OpenAiImageModel;
  images: ImagePart[];
  prompt: string;
  size: string;
  quality: string;
  n: number;
  inputFidelity: string | null;
  safetyIdentifier: string | null;
  outputFormat: ImageOutputFormat;
  outputCompression: number | null;
  /** `background` as sent (`auto` when none was, OpenAI's default). */
  background: 'transparent' | 'opaque' | 'auto';
  /** `complexity` as sent, `null` when none was (the model's own default). */
  complexity: string | null;
  /** Whether `stream` was `true` (server-sent events). */
  stream: boolean;
  /** `partial_images` as sent (0 when none was). */
  partialImages: number;
}

/**
 * The longest `safety_identifier` OpenAI takes, in characters: "a string that uniquely identifies each user, with a
 * maximum length of 128 characters" (the `openai` SDK 7.57.0, generated from OpenAI's API reference: the field's
 * documentation on Chat Completions and Responses; the images endpoints' `ImageEditParams.safety_identifier` is the
 * same field, "a stable identifier for an end user … Hash a username or email address"). Empty is allowed: the API
 * then falls back to the deprecated `user`.
 */
export const MAX_SAFETY_IDENTIFIER_LENGTH = 128;

/** The image format of the bytes (PNG, JPEG or WebP by signature), whatever the part declares. */
export function sniffImage(bytes: Buffer): 'png' | 'jpeg' | 'webp' | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  return undefined;
}

/**
 * The Authorization check: a missing header, or one that is not `Bearer sk-…` (OpenAI's keys start with `sk-`; the
 * stand-in cannot know which real keys exist, so any well-formed one is accepted), is OpenAI's 401.
 */
export function checkAuthorization(header: string | undefined): OpenAiErrorAnswer | undefined {
  if (!header) return refusals.missingKey();
  const key = /^Bearer (.+)$/.exec(header)?.[1] ?? header;
  return /^sk-[A-Za-z0-9_-]{4,}$/.test(key) ? undefined : refusals.invalidKey(key);
}

/** Whether `size` is on the flexible grid: sides multiples of 16, ratio within 1:3-3:1, edge ≤ 3840, pixel bounds. */
function onFlexibleGrid(size: string): boolean {
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (!match) return false;
  const [width, height] = [Number(match[1]), Number(match[2])];
  const pixels = width * height;
  return (
    width % 16 === 0 &&
    height % 16 === 0 &&
    Math.max(width, height) <= 3840 &&
    Math.max(width, height) / Math.min(width, height) <= 3 &&
    pixels >= 655_360 &&
    pixels <= 8_294_400
  );
}

const STANDARD_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'];

function text(form: FormData, name: string): string | null {
  const value = form.get(name);
  return typeof value === 'string' ? value : null;
}

/** Checks the parameters against the model; the first refusal, or `undefined`. */
function checkParameters(form: FormData, model: OpenAiImageModel): OpenAiErrorAnswer | undefined {
  const fidelity = text(form, 'input_fidelity');
  if (fidelity !== null) {
    // Proven for gpt-image-2 (errors.ts); inferred for the 2.5 and 2.6 models (docs/openai-image-models.md, note 1).
    if (model.inputFidelity.length === 0) return refusals.inputFidelityUnsupported(model.id);
    if (!(model.inputFidelity as readonly string[]).includes(fidelity)) {
      return refusals.invalidValue('input_fidelity', fidelity, model.inputFidelity);
    }
  }
  const quality = text(form, 'quality');
  if (quality !== null && !(model.qualities as readonly string[]).includes(quality)) {
    return refusals.invalidValue('quality', quality, model.qualities);
  }
  const size = text(form, 'size');
  if (size !== null && !STANDARD_SIZES.includes(size)) {
    if (model.sizes === 'standard') return refusals.invalidValue('size', size, STANDARD_SIZES);
    if (!onFlexibleGrid(size)) return refusals.invalidSize(size);
  }
  const n = text(form, 'n');
  if (n !== null && (!/^-?\d+$/.test(n) || Number(n) < 1 || Number(n) > model.maxN)) {
    return refusals.integerOutOfRange('n', Number.parseInt(n, 10) || 0, 1, model.maxN);
  }
  const format = text(form, 'output_format');
  if (format !== null && !(model.outputFormats as readonly string[]).includes(format)) {
    return refusals.invalidValue('output_format', format, model.outputFormats);
  }
  const identifier = text(form, 'safety_identifier');
  if (identifier !== null && identifier.length > MAX_SAFETY_IDENTIFIER_LENGTH) {
    return refusals.stringTooLong('safety_identifier', identifier.length, MAX_SAFETY_IDENTIFIER_LENGTH);
  }
  const compression = text(form, 'output_compression');
  if (compression !== null) {
    if (format !== 'jpeg' && format !== 'webp') return refusals.compressionWithoutLossyFormat();
    const value = Number(compression);
    if (!Number.isInteger(value) || value < 0 || value > 100) {
      return refusals.integerOutOfRange('output_compression', value, 0, 100);
    }
  }
  return undefined;
}

const BACKGROUNDS = ['transparent', 'opaque', 'auto'] as const;
const COMPLEXITIES = ['low', 'medium', 'high'] as const;

/**
 * The issue-36 parameters (model table, `background`, `complexity`, `streaming`): `background` one of three, and
 * `transparent` only on a model that makes it (`preview` counts: OpenAI documents it) and never with JPEG;
 * `complexity` only on the models that take it; `partial_images` an integer 0-3.
 */
function checkIssue36Parameters(form: FormData, model: OpenAiImageModel): OpenAiErrorAnswer | undefined {
  const background = text(form, 'background');
  if (background !== null) {
    if (!(BACKGROUNDS as readonly string[]).includes(background)) {
      return refusals.invalidValue('background', background, BACKGROUNDS);
    }
    if (background === 'transparent') {
      if (model.transparentBackground === 'refused') return refusals.transparentUnsupported();
      if (text(form, 'output_format') === 'jpeg') return refusals.transparentWithJpeg();
    }
  }
  const complexity = text(form, 'complexity');
  if (complexity !== null) {
    if (!model.takesComplexity) return refusals.unsupportedParameter('complexity');
    if (!(COMPLEXITIES as readonly string[]).includes(complexity)) {
      return refusals.invalidValue('complexity', complexity, COMPLEXITIES);
    }
  }
  const partials = text(form, 'partial_images');
  if (partials !== null) {
    const value = Number(partials);
    if (!/^-?\d+$/.test(partials) || value < 0 || value > model.maxPartialImages) {
      return refusals.integerOutOfRange('partial_images', value, 0, model.maxPartialImages);
    }
  }
  return undefined;
}

/**
 * Validates one edits request as OpenAI does.
 *
 * @param form the multipart body
 * @param images its `image` / `image[]` parts
 * @param now the request's date (a shut-down model is refused from its shutdown day on)
 * @returns the accepted request, or OpenAI's refusal
 */
export function validateEdit(
  form: FormData,
  images: ImagePart[],
  now: Date,
): { ok: true; edit: ValidEdit } | { ok: false; refusal: OpenAiErrorAnswer } {
  const refuse = (refusal: OpenAiErrorAnswer) => ({ ok: false as const, refusal });
  for (const name of new Set(form.keys())) {
    if (!EDIT_FIELDS.has(name)) return refuse(refusals.unknownParameter(name));
  }
  const modelId = text(form, 'model');
  if (!modelId) return refuse(refusals.missing('model'));
  const model = openAiImageModel(modelId);
  if (!model) return refuse(refusals.unknownModel(modelId));
  if (isShutDown(model, now)) return refuse(refusals.shutDown(model.id));
  if (images.length === 0) return refuse(refusals.missing('image'));
  if (images.length > model.maxInputImages) {
    return refuse(refusals.tooManyImages(images.length, model.maxInputImages));
  }
  const supported = ['image/png', 'image/jpeg', 'image/webp'];
  for (const [i, image] of images.entries()) {
    if (!supported.includes(image.type))
      return refuse(refusals.unsupportedImage(image.type || 'application/octet-stream'));
    if (!sniffImage(image.bytes)) return refuse(refusals.invalidImageFile(i + 1));
  }
  const prompt = text(form, 'prompt');
  if (!prompt) return refuse(refusals.missing('prompt'));
  const problem = checkParameters(form, model) ?? checkIssue36Parameters(form, model);
  if (problem) return refuse(problem);
  const compression = text(form, 'output_compression');
  return {
    ok: true,
    edit: {
      model,
      images,
      prompt,
      size: text(form, 'size') ?? 'auto',
      quality: text(form, 'quality') ?? 'auto',
      n: Number(text(form, 'n') ?? '1'),
      inputFidelity: text(form, 'input_fidelity'),
      safetyIdentifier: text(form, 'safety_identifier'),
      outputFormat: (text(form, 'output_format') as ImageOutputFormat | null) ?? 'png',
      outputCompression: compression === null ? null : Number(compression),
      background: (text(form, 'background') as ValidEdit['background'] | null) ?? 'auto',
      complexity: text(form, 'complexity'),
      stream: text(form, 'stream') === 'true',
      partialImages: Number(text(form, 'partial_images') ?? '0'),
    },
  };
}
