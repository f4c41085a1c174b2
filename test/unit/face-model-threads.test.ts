import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  analyzeFaces,
  decodeRgb,
  detectFacesHere,
} from '../../functions/adapters/support/vision-models/faces';
import { decodeHeadshot, headshotPixels } from '../../functions/adapters/images';
import { LIKENESS_SIDE, requireLikeness } from '../../functions/adapters/vision/likeness';
import {
  useFaceModelRunner,
  type FaceModelRunner,
} from '../../functions/adapters/support/vision-models/model-runner';
import {
  cosine,
  encodeDescriptor,
  GATE_COSINE,
  LikenessRejectedError,
} from '../../functions/domain/likeness';
import { startFaceModelThreads } from '../../infrastructure/local/stand-ins/lambda/face-model-threads';

const photo = (name: string) => readFileSync(new URL(`../fixtures/photos/${name}`, import.meta.url));

afterEach(() => {
  useFaceModelRunner(undefined);
});

describe('where the face models run', () => {
  it('sends every model run to the runner set, and a likeness check rejects a headshot it finds no face in', async () => {
    const seen: [number, number][] = [];
    const noFace: FaceModelRunner = async (image) => {
      seen.push([image.width, image.height]);
      return [];
    };
    useFaceModelRunner(noFace);
    const headshot = await headshotPixels(await decodeHeadshot(photo('obama.jpg')), LIKENESS_SIDE);
    await expect(requireLikeness(headshot, encodeDescriptor([1, 0, 0]), 55)).rejects.toBeInstanceOf(
      LikenessRejectedError,
    );
    // The headshot's square at the likeness size, never the full 1024 px.
    expect(seen).toEqual([[512, 512]]);
  });

  it(
    'finds on a model thread of the local stack the same faces as on this thread',
    { timeout: 60_000 },
    async () => {
      const image = await decodeRgb(photo('obama.jpg'));
      const here = await detectFacesHere(image);
      const threads = startFaceModelThreads(1);
      try {
        useFaceModelRunner(threads.runner);
        const [there, other] = await Promise.all([
          analyzeFaces(image),
          analyzeFaces(await decodeRgb(photo('biden.jpg'))),
        ]);
        expect(there.faces).toHaveLength(1);
        expect(here).toHaveLength(1);
        expect(cosine(there.faces[0]!.descriptor, here[0]!.embedding!)).toBeGreaterThan(0.999);
        // A second image queued on the same thread gets its own answer: another person.
        expect(other.faces).toHaveLength(1);
        expect(cosine(other.faces[0]!.descriptor, here[0]!.embedding!)).toBeLessThan(GATE_COSINE);
      } finally {
        await threads.stop();
      }
    },
  );

  it(
    'fails the jobs of a thread that was stopped instead of leaving them waiting',
    { timeout: 60_000 },
    async () => {
      const threads = startFaceModelThreads(1);
      const running = threads.runner(await decodeRgb(photo('obama.jpg')));
      await threads.stop();
      await expect(running).rejects.toThrow(/exited/);
    },
  );
});
