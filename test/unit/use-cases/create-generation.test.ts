import { describe, expect, it } from 'vitest';
import { createGeneration, type CreateGenerationPorts } from '../../../functions/use-cases/create-generation';
import { InsufficientCreditsError } from '../../../functions/domain/credits';
import {
  ForeignUploadError,
  HighResolutionUnavailableError,
  MixedPeopleError,
  UploadMissingError,
} from '../../../functions/domain/errors';
import { toHttpError } from '../../../functions/http/errors';
import { generationStartWorld, STARTER, SUB, uploadKey } from './fakes/generation-start';
import { photoCheckOf, type PhotoSpec } from './fakes/photos';

const key = (n: number, sub = SUB) => uploadKey(n, sub);

function world(credits = 12, highResolution = true) {
  const w = generationStartWorld();
  w.ledger.seedUser(SUB, credits);
  w.buckets.put('uploads', key(0), 'photo 0');
  w.buckets.put('uploads', key(1), 'photo 1');
  const ports: CreateGenerationPorts = { ...w.ports, highResolutionAvailable: () => highResolution };
  return { ...w, ports };
}

const body = (referenceKeys: string[], resolution: 'standard' | 'high' = 'standard') => ({
  style: 'business-casual' as const,
  background: 'gradient' as const,
  referenceKeys,
  resolution,
});

describe('createGeneration', () => {
  it("starts a 6-slot generation from the caller's stored uploads", async () => {
    const { ports, generations, ledger } = world();
    const started = await createGeneration(STARTER, body([key(0), key(1)]), ports);
    expect(started).toMatchObject({
      status: 'queued',
      style: 'business-casual',
      background: 'gradient',
      creditsReserved: 6,
    });
    expect(generations.stored(SUB, started.id)!.referenceKeys).toEqual([key(0), key(1)]);
    expect(ledger.balance(SUB)).toBe(6);
  });

  it('stores the chosen outfit on the generation, and none when the body names none (own clothing)', async () => {
    const { ports, generations } = world(12);
    const dressed = await createGeneration(STARTER, { ...body([key(0)]), outfit: 'suit-and-tie' }, ports);
    expect(generations.stored(SUB, dressed.id)!.outfit).toBe('suit-and-tie');
    generations.stored(SUB, dressed.id)!.status = 'succeeded';
    const own = await createGeneration(STARTER, body([key(1)]), ports);
    expect(generations.stored(SUB, own.id)!.outfit).toBeUndefined();
  });

  it('starts a high-resolution one when the image model can make it', async () => {
    const { ports } = world();
    expect((await createGeneration(STARTER, body([key(0)], 'high'), ports)).creditsReserved).toBe(12);
  });

  it('refuses high resolution the configured image model cannot make, reading nothing', async () => {
    const { ports, buckets } = world(12, false);
    await expect(createGeneration(STARTER, body([key(0)], 'high'), ports)).rejects.toBeInstanceOf(
      HighResolutionUnavailableError,
    );
    expect(buckets.heads).toEqual([]);
  });

  it("refuses another user's key, naming the photo, before anything is read or spent", async () => {
    const { ports, ledger, buckets } = world();
    buckets.put('uploads', key(0, 'user-2'), 'theirs');
    await expect(createGeneration(STARTER, body([key(0), key(0, 'user-2')]), ports)).rejects.toEqual(
      new ForeignUploadError(1),
    );
    expect(buckets.heads).toEqual([]);
    expect(ledger.balance(SUB)).toBe(12);
  });

  it('refuses a photo that was never uploaded, spending nothing', async () => {
    const { ports, ledger, executions } = world();
    await expect(createGeneration(STARTER, body([key(0), key(5)]), ports)).rejects.toEqual(
      new UploadMissingError(1),
    );
    expect(ledger.balance(SUB)).toBe(12);
    expect(executions.started).toEqual([]);
  });

  it('refuses photos of different people (mixed_people) with 409 MIXED_PEOPLE: nothing spent or started', async () => {
    const { ports, ledger, executions, generations, buckets, photoChecks } = world();
    // The photo check's answer for these photos: two people, and no majority to name the odd one out.
    const seedCheck = async (n: number, spec: PhotoSpec) => {
      photoChecks.seed(
        key(n),
        buckets.put('uploads', key(n), JSON.stringify(spec)),
        await photoCheckOf(spec),
      );
    };
    await seedCheck(0, { person: 'a' });
    await seedCheck(1, { person: 'b' });
    const refused = createGeneration(STARTER, body([key(0), key(1)]), ports);
    await expect(refused).rejects.toEqual(new MixedPeopleError());
    expect(ledger.balance(SUB)).toBe(12);
    expect(executions.started).toEqual([]);
    expect(generations.records.size).toBe(0);
    expect(toHttpError(await refused.catch((error: unknown) => error))).toMatchObject({
      statusCode: 409,
      code: 'MIXED_PEOPLE',
      message:
        "Your photos seem to show different people, and we can't tell which one is you. Please remove any photo that isn't you.",
    });
    // The customer removes the photo that isn't them: the same start goes ahead.
    expect((await createGeneration(STARTER, body([key(0)]), ports)).creditsReserved).toBe(6);
  });

  it('passes on what the start refuses', async () => {
    const { ports } = world(3);
    await expect(createGeneration(STARTER, body([key(0)]), ports)).rejects.toEqual(
      new InsufficientCreditsError(3, 6),
    );
  });
});
