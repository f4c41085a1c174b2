/**
 * Slot variety (issue 36 item 1, docs/decisions/027-slot-variations.md): how different the six headshots of ONE
 * generation are on the offline `local` provider, and how different the six prompts are that the `openai` provider
 * is sent. Not part of `npm test` or `npm run bench`; run alone:
 *
 *   node --import tsx test/bench/slot-variety.ts
 *
 * For the offline provider: three fixture photos of one person, cropped as PrepareReferences crops them, rendered for
 * slots 0-5 of one generation; each pair of headshots is compared on 64×64 greyscale thumbnails of the portrait
 * (mean absolute difference, 0-255), beside the same slot rendered twice (the floor: 0 when rendering is
 * deterministic) and beside the three references' own pairwise difference. For the prompts: the six slot prompts of
 * one look, and the words each adds to the look.
 */
import './env';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { composeLocalHeadshot } from '../../functions/adapters/image-providers/local';
import { buildPrompt, slotPrompt, slotVariation } from '../../functions/domain/prompts';
import { SLOTS } from '../../functions/domain/slots';
import { analyzePhoto } from '../../functions/use-cases/check-photos';
import { referenceCrop } from '../../functions/use-cases/prepare-references';
import { FIXTURE_PHOTOS } from '../helpers/generation';

const PHOTOS = ['obama.jpg', 'obama2.jpg', 'obama3.jpg'];
const GENERATION_ID = '01M80GZ6D1Q79C9B1WV0W2SV7Z';

/** A 64×64 greyscale thumbnail of an image's raw pixels. */
async function thumb(image: Buffer): Promise<Buffer> {
  return sharp(image).resize(64, 64, { fit: 'fill' }).greyscale().raw().toBuffer();
}

/** Mean absolute difference of two thumbnails, 0-255. */
function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Min (and its pair of indices), median and max of the pairwise differences of `thumbs`. */
function pairwise(thumbs: Buffer[]): {
  min: number;
  closest: [number, number];
  median: number;
  max: number;
  pairs: number;
} {
  const found: { value: number; pair: [number, number] }[] = [];
  for (let i = 0; i < thumbs.length; i++)
    for (let j = i + 1; j < thumbs.length; j++)
      found.push({ value: difference(thumbs[i]!, thumbs[j]!), pair: [i, j] });
  found.sort((x, y) => x.value - y.value);
  const values = found.map((f) => f.value);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    min: round(values[0]!),
    closest: found[0]!.pair,
    median: round(values[Math.floor(values.length / 2)]!),
    max: round(values.at(-1)!),
    pairs: values.length,
  };
}

async function main(): Promise<void> {
  const references: Buffer[] = [];
  for (const [index, name] of PHOTOS.entries()) {
    const bytes = readFileSync(`${FIXTURE_PHOTOS}${name}`);
    const analysed = await analyzePhoto(bytes);
    references.push(
      await referenceCrop({
        index,
        key: name,
        bytes,
        facts: analysed.facts,
        ...(analysed.framing ? { framing: analysed.framing } : {}),
        ...(analysed.image ? { image: analysed.image } : {}),
      }),
    );
  }
  const look = { style: 'professional', background: 'studio' } as const;
  const rendered = [];
  for (const slot of SLOTS) {
    const made = await composeLocalHeadshot({
      prompt: buildPrompt(look),
      references,
      ...look,
      slot,
      generationId: GENERATION_ID,
    });
    rendered.push({ slot, reference: made.reference, method: made.method, thumb: await thumb(made.jpeg) });
  }
  const again = await composeLocalHeadshot({
    prompt: buildPrompt(look),
    references,
    ...look,
    slot: 0,
    generationId: GENERATION_ID,
  });
  const lookPrompt = buildPrompt(look);
  const prompts = SLOTS.map((slot) => slotPrompt(lookPrompt, slotVariation({}, slot)));
  const report = {
    offline: {
      slots: rendered.map(({ slot, reference, method }) => ({ slot, reference, method })),
      sixSlots: pairwise(rendered.map((r) => r.thumb)),
      sameSlotTwice: Math.round(difference(rendered[0]!.thumb, await thumb(again.jpeg)) * 10) / 10,
      referencesThemselves: pairwise(await Promise.all(references.map(thumb))),
    },
    prompts: {
      distinct: new Set(prompts).size,
      lookCharacters: lookPrompt.length,
      variationCharacters: prompts.map((p) => p.length - lookPrompt.length),
    },
  };
  console.log(JSON.stringify(report, null, 2));
}

await main();
