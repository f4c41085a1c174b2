import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { createOpenAiProvider } from '../../functions/adapters/image-providers/openai';
import type { HeadshotRequest } from '../../functions/adapters/image-providers/types';
import { DEFAULT_OPENAI_IMAGE_MODEL } from '../../functions/domain/openai-image-models';
import { PARTIAL_IMAGES, partialImagesUsd } from '../../functions/domain/openai-image-purposes';
import { startFakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';

/*
 * What partial images add to one edit (docs/decisions/025-openai-parameters.md), measured on this machine against the
 * strict OpenAI stand-in with no model latency: the bytes the adapter receives, the output tokens the completed event
 * bills, and the wall time of the adapter's call with and without PARTIAL_IMAGES partials (the stand-in's own work to
 * make the partials is inside that time: an upper bound of what the adapter's parsing and decoding cost). OpenAI's
 * own time to render a partial is not measurable here. Run: node --import tsx test/bench/partial-images.ts
 */

const ROUNDS = 5;

async function main(): Promise<void> {
  const fake = await startFakeOpenAi();
  const photo = readFileSync(new URL('../fixtures/photos/obama.jpg', import.meta.url));
  const headshot = await sharp(photo).resize(1024, 1280, { fit: 'cover' }).png().toBuffer();
  const provider = createOpenAiProvider({
    apiKey: 'sk-bench-partials',
    baseURL: fake.baseURL,
    model: DEFAULT_OPENAI_IMAGE_MODEL,
  });
  const request: HeadshotRequest = {
    prompt: 'Change only the background to a plain #336699 backdrop; keep everything else.',
    references: [],
    style: 'professional',
    background: 'studio',
    slot: 0,
    generationId: 'bench',
    purpose: 'edit',
    edit: {
      image: headshot,
      request: { kind: 'background', background: { type: 'colour', colour: '#336699' } },
    },
  };
  const timed = async (streamed: boolean) => {
    const ms: number[] = [];
    let partialBytes = 0;
    let finalBytes = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      const image = await provider.generate(
        streamed ? { ...request, onPartialImage: async (png) => void (partialBytes += png.length) } : request,
      );
      ms.push(performance.now() - started);
      finalBytes += image.length;
    }
    ms.sort((a, b) => a - b);
    return {
      medianMs: Math.round(ms[Math.floor(ms.length / 2)]!),
      partialBytes: partialBytes / ROUNDS,
      finalBytes: finalBytes / ROUNDS,
    };
  };
  const plain = await timed(false);
  const streamed = await timed(true);
  console.log(
    JSON.stringify(
      {
        rounds: ROUNDS,
        partials: PARTIAL_IMAGES,
        plain,
        streamed,
        addedUsd: partialImagesUsd(PARTIAL_IMAGES),
      },
      null,
      2,
    ),
  );
  await fake.close();
}

await main();
