import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { analyzeFaces, decodeRgb } from '../../functions/adapters/support/vision-models/faces';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, pollGeneration, startGeneration, uploadPhotos } from '../helpers/generation';
import { useOpenAiGenerationStack } from '../helpers/generation-stack';

/*
 * The likeness guarantee on people the calibration was measured on (issue 24; docs/decisions/002-identity-model.md):
 * for several people of test/fixtures/faces, a provider that answers with OTHER real photos of the customer delivers
 * at least 5 of 6 headshots, and one that answers with other people's photos delivers none and refunds all 6. The
 * whole workflow runs: photo checks in PrepareReferences, the provider (the OpenAI stand-in, through the real SDK),
 * the likeness gate in FinishHeadshot, retries, refunds. Every generation has a fresh user (the likeness cap counts
 * per user).
 */

const FACES = fileURLToPath(new URL('../fixtures/faces/', import.meta.url));
const identities = JSON.parse(readFileSync(`${FACES}identities.json`, 'utf8')) as Record<string, string[]>;
/** People with at least 5 photos: 3 as the customer's uploads, the others as the provider's "headshots". */
const PEOPLE = Object.keys(identities).filter((p) => identities[p]!.length >= 5);

const gen = useOpenAiGenerationStack();

/**
 * A photo as a headshot provider would answer: a 1024 px square, head and shoulders, centred on the face (the
 * workflow centre-crops whatever it gets to a square; a portrait photo's face would otherwise be cut).
 */
async function asHeadshot(bytes: Buffer): Promise<Buffer> {
  const image = await decodeRgb(bytes);
  const face = (await analyzeFaces(image)).faces[0];
  if (!face) throw new Error('fixture without a face');
  const side = Math.min(image.width, image.height, Math.round(face.box.width * 2.4));
  const cx = face.box.x + face.box.width / 2;
  const cy = face.box.y + face.box.height * 0.6;
  const left = Math.round(Math.max(0, Math.min(image.width - side, cx - side / 2)));
  const top = Math.round(Math.max(0, Math.min(image.height - side, cy - side / 2)));
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left, top, width: side, height: side })
    .resize(1024, 1024)
    .png()
    .toBuffer();
}

const photo = (file: string) => readFileSync(`${FACES}${file}`);
/** Each person's provider answers: their photos after the first 3, as headshots. */
const answers = new Map<string, Buffer[]>();

beforeAll(async () => {
  for (const person of PEOPLE)
    answers.set(person, await Promise.all(identities[person]!.slice(3).map((f) => asHeadshot(photo(f)))));
}, 120_000);

async function customer(person: string): Promise<{ user: TestUser; keys: string[] }> {
  const { runtimeConfig } = inject('localStack');
  const user = await createTestUser({
    userPoolId: runtimeConfig.userPoolId,
    clientId: runtimeConfig.userPoolClientId,
  });
  expect((await api(gen.stack.gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  gen.expectBalancedAfterTest(user);
  const files = identities[person]!.slice(0, 3).map((name) => ({
    name,
    bytes: photo(name),
    contentType: 'image/jpeg',
  }));
  return { user, keys: await uploadPhotos(gen.stack.gatewayUrl, user.idToken, files) };
}

describe('the likeness guarantee on the labelled people', () => {
  it.each(PEOPLE)(
    '%s: a provider answering with other real photos of the customer delivers at least 5 of 6',
    async (person) => {
      const own = answers.get(person)!;
      gen.fake.answer = (call) => ({ image: own[call.index % own.length]! });
      const { user, keys } = await customer(person);
      const id = await startGeneration(gen.stack.gatewayUrl, user, keys);
      const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
      const likeness = (final.headshots as unknown as { likeness: number }[]).map((h) => h.likeness);
      console.info(`${person}: ${likeness.length} delivered, likeness ${likeness.join(', ')}`);
      expect(likeness.length).toBeGreaterThanOrEqual(5);
      expect(final.creditsRefunded).toBe(6 - likeness.length);
    },
  );

  it.each(PEOPLE)(
    '%s: a provider answering with other people’s photos delivers none and refunds all 6',
    async (person) => {
      const others = PEOPLE.filter((p) => p !== person).flatMap((p) => answers.get(p)!);
      gen.fake.answer = (call) => ({ image: others[call.index % others.length]! });
      const { user, keys } = await customer(person);
      const id = await startGeneration(gen.stack.gatewayUrl, user, keys);
      const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
      expect(final).toMatchObject({ status: 'failed', headshots: [], creditsRefunded: 6 });
    },
  );
});
