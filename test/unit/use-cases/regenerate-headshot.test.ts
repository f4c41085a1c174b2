import { describe, expect, it } from 'vitest';
import { quotaRules } from '../../../functions/adapters/quotas';
import {
  regenerateHeadshot,
  type RegenerateHeadshotPorts,
} from '../../../functions/use-cases/regenerate-headshot';
import { HEADSHOT_NOT_FOUND } from '../../../functions/use-cases/stored-photo-set';
import { InsufficientCreditsError } from '../../../functions/domain/credits';
import { ItemNotFoundError, MixedPeopleError, PhotosExpiredError } from '../../../functions/domain/errors';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { failing } from './fakes/failures';
import { finishedHeadshotWorld } from './fakes/finished-headshot';
import { photoCheckOf } from './fakes/photos';

const SUB = 'user-1';
const STARTER = { sub: SUB, email: undefined };
const KEYS = [`uploads/${SUB}/01KDWYDY00BBBBBBBBBBBBBBBB/0`];

/** A finished generation of the caller with one headshot, its photo still stored, and the caller's credits. */
async function world(credits = 1) {
  const w = await finishedHeadshotWorld(SUB, KEYS, { style: 'creative', background: 'outdoor' }, credits);
  const ports: RegenerateHeadshotPorts = {
    ...w.ports,
    consumeRegeneration: (sub) => w.quotas.consumeQuota({ sub }, quotaRules().regenerations),
    getHeadshot: w.getHeadshot,
    getGeneration: w.generations.getGeneration,
  };
  return { ...w, ports };
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

  it("keeps the headshot's outfit and the variation of the slot it regenerates, also for a redo of a redo", async () => {
    const { ports, headshotId, generations } = await world(2);
    generations.headshots.get(headshotId)!.outfit = 'knitwear';
    const started = await regenerateHeadshot(STARTER, headshotId, ports);
    // The headshot came from slot 2: its redo asks for variation 2 in the one-slot generation's slot 0.
    expect(generations.stored(SUB, started.id)).toMatchObject({ outfit: 'knitwear', variation: 2 });

    const redo = await generations.saveHeadshot({
      sub: SUB,
      generationId: started.id,
      slot: 0,
      style: 'creative',
      background: 'outdoor',
      outfit: 'knitwear',
      variation: 2,
      imageKey: 'k2',
      thumbnailKey: 't2',
    });
    generations.stored(SUB, started.id)!.status = 'succeeded';
    const again = await regenerateHeadshot(STARTER, redo.headshotId, ports);
    expect(generations.stored(SUB, again.id)).toMatchObject({ outfit: 'knitwear', variation: 2 });
  });

  it('leaves the outfit out for a headshot made before outfits (its own clothing)', async () => {
    const { ports, headshotId, generations } = await world();
    const started = await regenerateHeadshot(STARTER, headshotId, ports);
    expect(generations.stored(SUB, started.id)!.outfit).toBeUndefined();
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
