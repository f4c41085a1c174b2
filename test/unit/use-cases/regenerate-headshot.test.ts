import { describe, expect, it } from 'vitest';
import { quotaRules } from '../../../functions/adapters/quotas';
import {
  HEADSHOT_NOT_FOUND,
  regenerateHeadshot,
  type RegenerateHeadshotPorts,
} from '../../../functions/use-cases/regenerate-headshot';
import { InsufficientCreditsError } from '../../../functions/domain/credits';
import { ItemNotFoundError, MixedPeopleError, PhotosExpiredError } from '../../../functions/domain/errors';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { failing } from './fakes/failures';
import { generationStartWorld } from './fakes/generation-start';
import { photoCheckOf } from './fakes/photos';
import { FakeQuotas } from './fakes/quotas';

const SUB = 'user-1';
const STARTER = { sub: SUB, email: undefined };
const KEYS = [`uploads/${SUB}/01KDWYDY00BBBBBBBBBBBBBBBB/0`];

/** A finished generation of the caller with one headshot, its photo still stored, and the caller's credits. */
async function world(credits = 1) {
  const w = generationStartWorld();
  const quotas = new FakeQuotas();
  w.ledger.seedUser(SUB, credits);
  w.buckets.put('uploads', KEYS[0]!, 'photo');
  const original = w.generations.seed({
    status: 'succeeded',
    style: 'creative',
    background: 'outdoor',
    referenceKeys: KEYS,
  });
  const { headshotId } = await w.generations.saveHeadshot({
    sub: SUB,
    generationId: original.id,
    slot: 2,
    style: 'creative',
    background: 'outdoor',
    imageKey: 'k',
    thumbnailKey: 't',
    likeness: 88,
    provider: 'openai',
  });
  const ports: RegenerateHeadshotPorts = {
    ...w.ports,
    consumeRegeneration: (sub) => quotas.consumeQuota({ sub }, quotaRules().regenerations),
    getHeadshot: async (sub, id) => {
      const headshot = w.generations.headshots.get(id);
      return headshot?.userId === sub ? headshot : undefined;
    },
    getGeneration: w.generations.getGeneration,
  };
  return { ...w, quotas, original, headshotId, ports };
}

describe('regenerateHeadshot', () => {
  it("starts a 1-credit, one-slot generation with the original's style, background and photos", async () => {
    const { ports, headshotId, generations, executions, ledger } = await world();
    const started = await regenerateHeadshot(STARTER, headshotId, ports);
    expect(started).toMatchObject({
      creditsReserved: 1,
      credits: 0,
      style: 'creative',
      background: 'outdoor',
    });
    expect(generations.stored(SUB, started.id)).toMatchObject({
      slotCount: 1,
      regeneratedFrom: headshotId,
      referenceKeys: KEYS,
    });
    expect(executions.started[0]!.slots).toEqual([0]);
    expect(ledger.balance(SUB)).toBe(0);
  });

  it('counts every attempt and refuses past the hourly quota, reading nothing', async () => {
    const { ports, headshotId, quotas } = await world();
    quotas.used.set(`${SUB}|regenerations`, quotaRules().regenerations.limit);
    const reads: string[] = [];
    const counting = {
      ...ports,
      getHeadshot: async (sub: string, id: string) => {
        reads.push(id);
        return ports.getHeadshot(sub, id);
      },
    };
    await expect(regenerateHeadshot(STARTER, headshotId, counting)).rejects.toBeInstanceOf(
      QuotaExceededError,
    );
    expect(reads).toEqual([]);
  });

  it("answers the same 404 for an unknown headshot, another user's and one whose generation is gone", async () => {
    const { ports, headshotId, generations, original } = await world();
    const notFound = new ItemNotFoundError(HEADSHOT_NOT_FOUND);
    await expect(regenerateHeadshot(STARTER, 'headshot-404', ports)).rejects.toEqual(notFound);
    await expect(regenerateHeadshot({ sub: 'user-2', email: undefined }, headshotId, ports)).rejects.toEqual(
      notFound,
    );
    await generations.deleteGeneration(SUB, original.id);
    await expect(regenerateHeadshot(STARTER, headshotId, ports)).rejects.toEqual(notFound);
  });

  it('says the photos expired when they are no longer stored, spending nothing', async () => {
    const { ports, headshotId, buckets, ledger } = await world();
    await buckets.deleteObject('uploads', KEYS[0]!);
    await expect(regenerateHeadshot(STARTER, headshotId, ports)).rejects.toBeInstanceOf(PhotosExpiredError);
    expect(ledger.balance(SUB)).toBe(1);
  });

  it('refuses photos the photo check calls mixed_people (a set started before issue 33), spending nothing', async () => {
    const { ports, headshotId, buckets, photoChecks, generations, original, ledger, executions } =
      await world();
    const keys = [...KEYS, `uploads/${SUB}/01KDWYDY00BBBBBBBBBBBBBBBB/1`];
    generations.stored(SUB, original.id)!.referenceKeys = keys;
    for (const [i, person] of ['a', 'b'].entries()) {
      const etag = buckets.put('uploads', keys[i]!, JSON.stringify({ person }));
      photoChecks.seed(keys[i]!, etag, await photoCheckOf({ person }));
    }
    await expect(regenerateHeadshot(STARTER, headshotId, ports)).rejects.toEqual(new MixedPeopleError());
    expect(ledger.balance(SUB)).toBe(1);
    expect(executions.started).toEqual([]);
  });

  it('passes on what the start refuses', async () => {
    const { ports, headshotId } = await world(0);
    await expect(regenerateHeadshot(STARTER, headshotId, ports)).rejects.toEqual(
      new InsufficientCreditsError(0, 1),
    );
  });

  it('fails when the photos cannot be checked (not "expired": S3 is down)', async () => {
    const { ports, headshotId } = await world();
    await expect(
      regenerateHeadshot(STARTER, headshotId, { ...ports, headObject: failing(new Error('S3 down')) }),
    ).rejects.toThrow('S3 down');
  });
});
