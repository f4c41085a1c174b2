import { describe, expect, it } from 'vitest';
import { createGeneration, type CreateGenerationPorts } from '../../../functions/use-cases/create-generation';
import { InsufficientCreditsError } from '../../../functions/domain/credits';
import {
  ForeignUploadError,
  HighResolutionUnavailableError,
  UploadMissingError,
} from '../../../functions/domain/errors';
import { generationStartWorld } from './fakes/generation-start';

const SUB = 'user-1';
const STARTER = { sub: SUB, email: undefined };
const BATCH = '01KDWYDY00BBBBBBBBBBBBBBBB';
const key = (n: number, sub = SUB) => `uploads/${sub}/${BATCH}/${n}`;

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

  it('passes on what the start refuses', async () => {
    const { ports } = world(3);
    await expect(createGeneration(STARTER, body([key(0)]), ports)).rejects.toEqual(
      new InsufficientCreditsError(3, 6),
    );
  });
});
