import { describe, expect, it } from 'vitest';
import {
  assertReferencesStored,
  startGeneration,
  type GenerationRequest,
} from '../../../functions/use-cases/start-generation';
import { InsufficientCreditsError } from '../../../functions/domain/credits';
import {
  AccountDeletingError,
  InvalidUploadError,
  MixedPeopleError,
  UploadMissingError,
  WorkflowStartFailedError,
} from '../../../functions/domain/errors';
import { GENERATION_ERROR_MESSAGES } from '../../../functions/domain/generation-errors';
import { createHash } from 'node:crypto';
import { PhotosDontMatchError, referenceSetHash } from '../../../functions/domain/likeness-cap';
import { PhotosRefusedError, safetyIdentifier } from '../../../functions/domain/provider-refusals';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { orderKey } from '../../../functions/domain/provider-queue-order';
import { failing } from './fakes/failures';
import { generationStartWorld, START, STARTER, SUB, TEST_PEPPER, uploadKey } from './fakes/generation-start';
import { photoCheckOf, type PhotoSpec } from './fakes/photos';

const KEYS = [uploadKey(0)];
/** The one photo's bytes, and its set's identity: its content's digest, not its ETag. */
const PHOTO = 'photo';
const HASH = referenceSetHash([createHash('sha256').update(PHOTO).digest('hex')]);
const REQUEST: GenerationRequest = {
  style: 'professional',
  background: 'studio',
  referenceKeys: KEYS,
  referenceSetHash: HASH,
};

/** A customer with `credits`, one stored upload, and everything a start touches. */
function world(credits = 10) {
  const w = generationStartWorld();
  w.ledger.seedUser(SUB, credits);
  w.buckets.put('uploads', KEYS[0]!, PHOTO);
  return w;
}

describe('assertReferencesStored', () => {
  it("answers the photos' identity: a hash of their contents, the same under other keys, in any order", async () => {
    const { ports, buckets } = world();
    expect(await assertReferencesStored(SUB, KEYS, ports)).toBe(HASH);
    const again = [
      uploadKey(0, SUB, '01KDWYDY00CCCCCCCCCCCCCCCC'),
      uploadKey(1, SUB, '01KDWYDY00CCCCCCCCCCCCCCCC'),
    ];
    buckets.put('uploads', again[0]!, 'another photo');
    buckets.put('uploads', again[1]!, PHOTO);
    const both = await assertReferencesStored(SUB, [KEYS[0]!, again[0]!], ports);
    expect(await assertReferencesStored(SUB, [...again].reverse(), ports)).toBe(both);
    expect(both).not.toBe(HASH);
  });

  it('names a photo that is not stored, is empty, too large or not an image', async () => {
    const { ports, buckets } = world();
    const key = (n: number) => uploadKey(n);
    await expect(assertReferencesStored(SUB, [...KEYS, key(1)], ports)).rejects.toEqual(
      new UploadMissingError(1),
    );
    buckets.put('uploads', key(2), '');
    buckets.put('uploads', key(3), Buffer.alloc(10 * 1024 * 1024 + 1));
    buckets.put('uploads', key(4), 'a pdf', 'application/pdf');
    for (const n of [2, 3, 4]) {
      await expect(assertReferencesStored(SUB, [key(n)], ports)).rejects.toEqual(new InvalidUploadError(0));
    }
  });

  it('refuses a photo deleted between its HEAD and its read', async () => {
    const { ports } = world();
    const gone = { ...ports, objectSha256: async () => undefined };
    await expect(assertReferencesStored(SUB, KEYS, gone)).rejects.toEqual(new UploadMissingError(0));
  });

  describe('photos the photo check calls mixed_people (issue 33)', () => {
    const key = (n: number) => uploadKey(n, SUB, '01KDWYDY00DDDDDDDDDDDDDDDD');
    /** Uploads showing `specs`, each with the check `POST /api/photo-checks` stored for its current version. */
    async function checkedSet(specs: PhotoSpec[]) {
      const w = world();
      const keys = await Promise.all(
        specs.map(async (spec, n) => {
          const etag = w.buckets.put('uploads', key(n), JSON.stringify(spec));
          w.photoChecks.seed(key(n), etag, await photoCheckOf(spec));
          return key(n);
        }),
      );
      return { ...w, keys };
    }

    it("refuses photos of two people with no majority, before reading the photos' bytes", async () => {
      for (const people of [
        ['a', 'b'],
        ['a', 'a', 'b', 'b'],
        ['a', 'b', 'c'],
      ]) {
        const { ports, keys } = await checkedSet(people.map((person, shot) => ({ person, shot })));
        const unread = { ...ports, objectSha256: failing() };
        await expect(assertReferencesStored(SUB, keys, unread)).rejects.toEqual(new MixedPeopleError());
      }
    });

    it('passes one person, and a majority with someone else (their photo is dropped by PrepareReferences)', async () => {
      for (const people of [
        ['a', 'a'],
        ['a', 'a', 'b'],
      ]) {
        const { ports, keys } = await checkedSet(people.map((person, shot) => ({ person, shot })));
        expect(await assertReferencesStored(SUB, keys, ports)).toMatch(/^[0-9a-f]{32}$/);
      }
    });

    it('leaves a set to PrepareReferences when a photo has no check at its current version', async () => {
      const { ports, keys, buckets, photoChecks } = await checkedSet([{ person: 'a' }, { person: 'b' }]);
      // Replaced after its check: the stored check describes other bytes.
      buckets.put('uploads', keys[1]!, JSON.stringify({ person: 'b', shot: 2 }));
      expect(await assertReferencesStored(SUB, keys, ports)).toMatch(/^[0-9a-f]{32}$/);
      // Checked before perceptual hashes were kept: the photo check would analyse it again.
      const etag = buckets.put('uploads', keys[1]!, JSON.stringify({ person: 'b' }));
      const { imageHash: _hash, ...facts } = (await photoCheckOf({ person: 'b' })).facts;
      photoChecks.seed(keys[1]!, etag, { facts });
      expect(await assertReferencesStored(SUB, keys, ports)).toMatch(/^[0-9a-f]{32}$/);
    });

    it('fails when the stored checks cannot be read', async () => {
      const { ports, keys } = await checkedSet([{ person: 'a' }, { person: 'b' }]);
      await expect(
        assertReferencesStored(SUB, keys, { ...ports, cachedPhotoChecks: failing() }),
      ).rejects.toThrow('port down');
    });
  });

  it('fails when a photo cannot be read', async () => {
    const { ports } = world();
    await expect(assertReferencesStored(SUB, KEYS, { ...ports, objectSha256: failing() })).rejects.toThrow(
      'port down',
    );
  });
});

describe('startGeneration', () => {
  it('spends the credits with the new generation in one change, then starts its workflow', async () => {
    const { ports, ledger, generations, executions, markers } = world();
    const started = await startGeneration(STARTER, REQUEST, ports);
    expect(started).toEqual({
      id: expect.any(String),
      status: 'queued',
      stage: 'queued',
      progress: 5,
      style: 'professional',
      background: 'studio',
      creditsReserved: 6,
      credits: 4,
      createdAt: START.toISOString(),
    });
    expect(ledger.entriesOf(SUB, 'generation')).toEqual([
      expect.objectContaining({ delta: -6, ref: started.id }),
    ]);
    expect(generations.stored(SUB, started.id)).toMatchObject({
      status: 'queued',
      creditsReserved: 6,
      referenceKeys: KEYS,
      referenceSetHash: HASH,
      safetyIdentifier: safetyIdentifier(SUB, TEST_PEPPER),
      executionArn: expect.stringContaining(started.id),
    });
    expect(executions.started).toEqual([
      {
        generationId: started.id,
        userId: SUB,
        style: 'professional',
        background: 'studio',
        referenceKeys: KEYS,
      },
    ]);
    expect([...markers.sweep.values()].map((m) => m.generationId)).toEqual([started.id]);
    expect(ledger.users.get(SUB)!.lastGenerationId).toBe(started.id);
  });

  it('costs 2 credits a slot at high resolution', async () => {
    const { ports, generations } = world(12);
    const started = await startGeneration(STARTER, { ...REQUEST, resolution: 'high' }, ports);
    expect(started).toMatchObject({ creditsReserved: 12, credits: 0 });
    expect(generations.stored(SUB, started.id)!.resolution).toBe('high');
  });

  it('starts a one-slot regeneration for 1 credit', async () => {
    const { ports, generations, executions } = world(1);
    const started = await startGeneration(
      STARTER,
      { ...REQUEST, slots: [0], regeneratedFrom: 'headshot-1' },
      ports,
    );
    expect(started.creditsReserved).toBe(1);
    expect(generations.stored(SUB, started.id)).toMatchObject({
      slotCount: 1,
      regeneratedFrom: 'headshot-1',
    });
    expect(executions.started[0]!.slots).toEqual([0]);
  });

  it('creates the user of a first ID token (its sign-up credits) before spending', async () => {
    const w = generationStartWorld();
    w.buckets.put('uploads', KEYS[0]!, PHOTO);
    const started = await startGeneration({ sub: SUB, email: 'ada@example.com' }, REQUEST, w.ports);
    expect(started.credits).toBe(0);
    expect(w.ledger.ledgerSum(SUB)).toBe(0);
  });

  it('refuses a balance under the cost, spending nothing and starting nothing', async () => {
    const { ports, ledger, executions } = world(5);
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toEqual(
      new InsufficientCreditsError(5, 6),
    );
    expect(ledger.balance(SUB)).toBe(5);
    expect(executions.started).toEqual([]);
  });

  it('answers a user without an item as having 0 credits', async () => {
    const { ports } = generationStartWorld();
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toEqual(
      new InsufficientCreditsError(0, 6),
    );
  });

  it('refuses while the previous generation is running, and starts once it ended', async () => {
    const { ports, generations, ledger } = world(20);
    const first = await startGeneration(STARTER, REQUEST, ports);
    const second = startGeneration(STARTER, REQUEST, ports);
    await expect(second).rejects.toBeInstanceOf(QuotaExceededError);
    await expect(second).rejects.toMatchObject({ quota: 'generations-in-flight' });
    generations.stored(SUB, first.id)!.status = 'succeeded';
    await expect(startGeneration(STARTER, REQUEST, ports)).resolves.toMatchObject({ credits: 8 });
    expect(ledger.entriesOf(SUB, 'generation')).toHaveLength(2);
  });

  it('refuses the second of two starts that read the same user item (the guard in the transaction)', async () => {
    const { ports, ledger } = world(20);
    const racing = {
      ...ports,
      getUser: async (sub: string) => {
        const user = await ports.getUser(sub);
        ledger.users.get(sub)!.lastGenerationId = 'another-start';
        return user;
      },
    };
    await expect(startGeneration(STARTER, REQUEST, racing)).rejects.toMatchObject({
      quota: 'generations-in-flight',
    });
    expect(ledger.balance(SUB)).toBe(20);
  });

  it('refuses an account whose deletion has started', async () => {
    const { ports, ledger } = world();
    ledger.users.get(SUB)!.deletingAt = START.toISOString();
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toBeInstanceOf(AccountDeletingError);
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('refuses photos whose headshots kept failing the likeness check, before spending', async () => {
    const { ports, cap, ledger } = world();
    cap.failedSets.set(`${SUB}|${HASH}`, Math.floor(START.getTime() / 1000) + 3600);
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toBeInstanceOf(PhotosDontMatchError);
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('refuses photos set aside after the provider refused them, before spending', async () => {
    const { ports, refusals, ledger, executions } = world();
    refusals.refusedSets.set(`${SUB}|${HASH}`, Math.floor(START.getTime() / 1000) + 3600);
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toBeInstanceOf(PhotosRefusedError);
    expect(ledger.balance(SUB)).toBe(10);
    expect(executions.started).toEqual([]);
  });

  it('refuses any start of an account the provider refused 6 times in 24 hours, before spending', async () => {
    const { ports, refusals, ledger } = world();
    refusals.seedAccountRefusals(SUB, START.getTime() - 3_600_000, 6);
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toMatchObject({
      quota: 'provider-refusals',
      retryAfterSeconds: 23 * 3600,
    });
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('refuses a free start the provider line cannot serve before its deadline, before spending', async () => {
    const { ports, line, ledger, executions } = world();
    line.priorities.set(SUB, 'free');
    // 20 free generations wait: 120 slots at 3 permits of a 60 s call each: 41 minutes, past the 30-minute deadline.
    for (let g = 0; g < 20; g++)
      line.places.set(`01JFREE${g}`, orderKey(START.getTime() - 60_000 + g, 'free', line.headStart));
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toMatchObject({
      quota: 'provider-line',
      retryAfterSeconds: expect.any(Number),
    });
    expect(ledger.balance(SUB)).toBe(10);
    expect(executions.started).toEqual([]);
    // A paying customer behind the same crowd starts: free work gets only its share ahead of them.
    line.priorities.set(SUB, 'standard');
    await expect(startGeneration(STARTER, REQUEST, ports)).resolves.toMatchObject({ status: 'queued' });
  });

  it("refuses a start when the day's provider calls are used up", async () => {
    const { ports, cap, ledger } = world();
    cap.limits = { ...cap.limits, callsPerCredit: 0 };
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toMatchObject({
      quota: 'likeness-attempts',
    });
    expect(ledger.balance(SUB)).toBe(10);
  });

  it('gives every credit back and marks the generation failed when the workflow does not start', async () => {
    const { ports, ledger, generations, executions } = world();
    executions.refuseWith = new Error('StateMachineDoesNotExist');
    await expect(startGeneration(STARTER, REQUEST, ports)).rejects.toEqual(new WorkflowStartFailedError(6));
    expect(ledger.balance(SUB)).toBe(10);
    const [generation] = [...generations.records.values()];
    expect(generation).toMatchObject({
      status: 'failed',
      creditsRefunded: 6,
      error: { code: 'START_FAILED', message: GENERATION_ERROR_MESSAGES.START_FAILED },
    });
  });

  it('still answers a started generation when its ARN cannot be recorded', async () => {
    const { ports } = world();
    const started = await startGeneration(STARTER, REQUEST, { ...ports, setExecutionArn: failing() });
    expect(started.status).toBe('queued');
  });

  it('fails when the ledger cannot be reached, starting nothing', async () => {
    const { ports, executions } = world();
    await expect(
      startGeneration(STARTER, REQUEST, { ...ports, spendCredits: failing(new Error('table down')) }),
    ).rejects.toThrow('table down');
    expect(executions.started).toEqual([]);
  });
});
