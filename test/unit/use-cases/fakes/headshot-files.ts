import type { HeadshotCanvas, HeadshotFiles } from '../../../../functions/adapters/headshot-files';
import type { CanvasFace, ScaledPixels } from '../../../../functions/adapters/vision/likeness';
import type { HeadshotFilesPorts } from '../../../../functions/use-cases/headshot-files';
import type { VariantPlan } from '../../../../functions/domain/headshot-variants';
import { LikenessRejectedError } from '../../../../functions/domain/likeness';
import type { FakeBuckets } from './storage';

/** What the fake face models see on a canvas: a face and its likeness, or no face. */
export interface CanvasScene {
  /** The face's likeness to the customer, 0-100; `undefined`: no face on the canvas. */
  likeness?: number;
}

/**
 * The headshot's codec (adapters/headshot-files.ts) and the likeness on its canvas (adapters/vision/likeness.ts),
 * faked: any bytes but `not an image` decode to a 1024 × 1280 canvas; the face (eyes at the canvas's upper middle)
 * and its likeness are {@link scene}'s; each file's bytes name the variant and its rectangle. Records what was
 * encoded.
 */
export class FakeHeadshotCodec {
  scene: CanvasScene = { likeness: 90 };
  /** The plans files were cut by. */
  readonly encoded: VariantPlan[] = [];
  /** Threshold and descriptor each measurement was asked with. */
  readonly measured: { referenceDescriptor: string | undefined; threshold: number }[] = [];

  readonly decodeCanvas = async (bytes: Buffer, keepAlpha = false): Promise<HeadshotCanvas> => {
    if (bytes.toString() === 'not an image')
      throw new Error('Input buffer contains unsupported image format');
    return { data: bytes, width: 1024, height: 1280, ...(keepAlpha ? { alpha: true } : {}) };
  };

  readonly canvasPixels = async (canvas: HeadshotCanvas, width: number): Promise<ScaledPixels> => ({
    data: canvas.data,
    width,
    height: Math.round((canvas.height * width) / canvas.width),
    scale: canvas.width / width,
  });

  readonly locateAndMeasure = async (
    _pixels: ScaledPixels,
    _canvas: { width: number; height: number },
    referenceDescriptor: string | undefined,
    threshold: number,
  ): Promise<CanvasFace | undefined> => {
    this.measured.push({ referenceDescriptor, threshold });
    const { likeness } = this.scene;
    if (likeness === undefined) {
      if (referenceDescriptor) throw new LikenessRejectedError('The headshot has no face');
      return undefined;
    }
    if (referenceDescriptor && likeness < threshold)
      throw new LikenessRejectedError(`The headshot's likeness ${likeness} is under ${threshold}`, likeness);
    const face = { eyes: { x: 512, y: 500 }, box: { left: 400, top: 380, width: 224, height: 300 } };
    return { ...face, likeness: referenceDescriptor ? likeness : undefined };
  };

  readonly encodeOriginal = async (): Promise<Buffer> => Buffer.from('original png');

  readonly encodeHeadshotFiles = async (
    _canvas: HeadshotCanvas,
    plan: VariantPlan,
    original: Promise<Buffer> = this.encodeOriginal(),
  ): Promise<HeadshotFiles> => {
    this.encoded.push(plan);
    const rect = (r: VariantPlan['square']['rect']) => `${r.left},${r.top} ${r.width}x${r.height}`;
    return {
      square: Buffer.from(`square ${rect(plan.square.rect)}`),
      thumbnail: Buffer.from('thumbnail'),
      portrait: Buffer.from(`portrait ${rect(plan.portrait.rect)}`),
      original: await original,
    };
  };

  /** The ports of use-cases/headshot-files.ts on this codec and `buckets`. */
  portsWith(buckets: FakeBuckets): HeadshotFilesPorts {
    return {
      decodeCanvas: this.decodeCanvas,
      canvasPixels: this.canvasPixels,
      locateAndMeasure: this.locateAndMeasure,
      encodeOriginal: this.encodeOriginal,
      encodeHeadshotFiles: this.encodeHeadshotFiles,
      putObject: buckets.putObject,
      deleteObject: buckets.deleteObject,
    };
  }
}
