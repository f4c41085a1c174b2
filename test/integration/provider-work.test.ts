import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { s3Client } from '../../functions/adapters/support/aws';
import { headObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import { getUser } from '../../functions/adapters/ledger';
import { providerImageKey, WORK_PREFIX } from '../../functions/domain/object-keys';
import type { LambdaRuntime } from '../../infrastructure/local/stand-ins/lambda/runtime';
import { fixturePhoto, pollGeneration, startGeneration } from '../helpers/generation';
import { openAiErrors, useOpenAiGenerationStack } from '../helpers/generation-stack';

/*
 * "Pay only for work" (docs/architecture.md §4): CallProvider (a small function) makes the one provider call and
 * leaves the provider's bytes under work/; FinishHeadshot (2 GB) reads them, checks the likeness, encodes and saves,
 * and deletes them whatever the slot's end. The real openai SDK against the OpenAI stand-in, the ASL on the local
 * Step Functions, every task through a runtime that records what each of the two functions was handed.
 */

interface Invocation {
  fn: string;
  event: Record<string, unknown>;
  result?: Record<string, unknown>;
  /** The function error's message, when it failed. */
  error?: string;
  /** For CallProvider answers `generated`: whether the slot's work/ object existed when it returned. */
  workObjectAfterCall?: boolean;
}

const CALL = 'generation-call-provider';
const FINISH = 'generation-finish-headshot';
const invocations: Invocation[] = [];

function recording(runtime: LambdaRuntime): LambdaRuntime {
  return {
    ...runtime,
    async invoke(nameOrArn, event, options) {
      const fn = nameOrArn.split(':').pop()!;
      let result: Record<string, unknown>;
      try {
        result = (await runtime.invoke(nameOrArn, event, options)) as Record<string, unknown>;
      } catch (error) {
        if (fn === CALL || fn === FINISH) {
          invocations.push({ fn, event: event as Record<string, unknown>, error: (error as Error).message });
        }
        throw error;
      }
      if (fn === CALL || fn === FINISH) {
        const record: Invocation = { fn, event: event as Record<string, unknown>, result };
        if (fn === CALL && result.outcome === 'generated') {
          const { userId, generationId, slot } = event as {
            userId: string;
            generationId: string;
            slot: number;
          };
          const key = providerImageKey(userId, generationId, slot);
          record.workObjectAfterCall = (await headObject('results', key)) !== undefined;
        }
        invocations.push(record);
      }
      return result;
    },
  };
}

const gen = useOpenAiGenerationStack(() => ({}), { wrapRuntime: recording });

afterEach(() => {
  invocations.length = 0;
});

/** Every key under `work/<sub>/` in the results bucket. */
async function workObjects(sub: string): Promise<string[]> {
  const listed = await s3Client().send(
    new ListObjectsV2Command({ Bucket: storageSettings().RESULTS_BUCKET, Prefix: `${WORK_PREFIX}${sub}/` }),
  );
  return (listed.Contents ?? []).map((o) => o.Key!);
}

describe('the provider call and the finishing, in two functions', () => {
  it('leaves nothing under work/ once the slots end: saved, likeness rejected, unusable output, throttled', async () => {
    const { user, keys } = await gen.userWithPhotos();
    const stranger = fixturePhoto('biden.jpg').bytes;
    // Call 0: someone else (LikenessRejected, made once more); call 1: bytes that are no image (refunded);
    // call 2: a 429 (back in line, no image); every other call: a headshot.
    gen.fake.answer = (call) =>
      call.index === 0
        ? { image: stranger }
        : call.index === 1
          ? { image: Buffer.from('not an image at all') }
          : call.index === 2
            ? openAiErrors.rateLimited
            : 'image';
    const id = await startGeneration(gen.stack.gatewayUrl, user, keys, {
      style: 'professional',
      background: 'studio',
    });
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    await gen.stack.settled();

    expect(final).toMatchObject({ status: 'partial', creditsRefunded: 1 });
    expect(final.headshots).toHaveLength(5);
    expect((await getUser(user.sub))?.credits).toBe(1);
    // The handoff went through work/: every generated image was there when CallProvider returned …
    const generated = invocations.filter((i) => i.fn === CALL && i.result?.outcome === 'generated');
    expect(generated).toHaveLength(7);
    for (const call of generated) expect(call.workObjectAfterCall).toBe(true);
    // … each one was finished once: five saved, the stranger and the bytes that are no image refused …
    const finishes = invocations.filter((i) => i.fn === FINISH);
    expect(finishes).toHaveLength(7);
    expect(finishes.filter((i) => i.result?.outcome === 'saved')).toHaveLength(5);
    expect(finishes.map((i) => i.error).filter(Boolean)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^LikenessRejected/),
        expect.stringMatching(/^ProviderInvalidOutputError/),
      ]),
    );
    expect(invocations.filter((i) => i.fn === CALL && i.result?.outcome === 'throttled')).toHaveLength(1);
    // … and none is left.
    expect(await workObjects(user.sub)).toEqual([]);
  });

  it('hands the call function only the slot, the prompt, the reference keys and its lease, and gets back no image', async () => {
    const { user, keys } = await gen.userWithPhotos();
    const id = await startGeneration(gen.stack.gatewayUrl, user, keys, {
      style: 'creative',
      background: 'office',
    });
    const { final } = await pollGeneration(gen.stack.gatewayUrl, user.idToken, id);
    await gen.stack.settled();
    expect(final).toMatchObject({ status: 'succeeded', creditsRefunded: 0 });

    const calls = invocations.filter((i) => i.fn === CALL);
    expect(calls).toHaveLength(6);
    for (const { event, result } of calls) {
      expect(Object.keys(event).sort()).toEqual(
        ['background', 'generationId', 'leaseId', 'prompt', 'references', 'slot', 'style', 'userId'].sort(),
      );
      // The lease it was admitted with: its permit goes back as soon as the provider answered.
      expect(event.leaseId).toMatch(/^L#/);
      expect(event.userId).toBe(user.sub);
      for (const key of event.references as string[]) {
        expect(key.startsWith(`uploads/${user.sub}/`)).toBe(true);
      }
      // Step Functions carries the outcome, never the bytes (its payloads stop at 256 KB).
      expect(result).toEqual({
        slot: event.slot,
        outcome: 'generated',
        headshotId: null,
        retryAfterMs: null,
        provider: 'openai',
      });
    }
    // The finishing names no object key: it derives the slot's own, so no input can point it elsewhere.
    for (const { event } of invocations.filter((i) => i.fn === FINISH)) {
      expect(Object.keys(event).sort()).toEqual(
        ['background', 'generationId', 'provider', 'references', 'slot', 'style', 'userId'].sort(),
      );
    }
    expect(await workObjects(user.sub)).toEqual([]);
  });
});
