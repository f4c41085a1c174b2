import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import type { GenerationRecord } from '../../../functions/adapters/generations';
import {
  ProviderThrottledError,
  ProviderUnavailableError,
  type HeadshotRequest,
  type ImageProvider,
} from '../../../functions/adapters/image-providers';
import {
  callProvider,
  type CallProviderPorts,
  type ProviderCall,
} from '../../../functions/use-cases/call-provider';
import { countProviderCall } from '../../../functions/use-cases/likeness-cap-before-call';
import {
  GenerationClosedError,
  GenerationNotFoundError,
  ReferenceMissingError,
} from '../../../functions/domain/generation-errors';
import { LikenessStoppedError, ProviderCallCapError } from '../../../functions/domain/likeness-cap';
import { partialImageKey, providerImageKey } from '../../../functions/domain/object-keys';
import { editPrompt } from '../../../functions/domain/edit-prompts';
import type { EditRequest } from '../../../functions/domain/edits';
import { SLOT_VARIATIONS, slotPrompt, variationSentence } from '../../../functions/domain/prompts';
import { leaseId } from '../../../functions/domain/provider-queue-order';
import { failing } from './fakes/failures';
import { FakeLikenessCap } from './fakes/likeness-cap';
import { FakeProviderQueue } from './fakes/provider-queue';

const sub = 'customer-1';
const IMAGE = Buffer.from('provider bytes');

/** An image provider that answers `answer` (bytes, or an error to throw) and records what it was asked. */
class RecordingProvider implements ImageProvider {
  readonly name = 'recording';
  readonly requests: HeadshotRequest[] = [];
  constructor(public answer: Buffer | Error = IMAGE) {}
  async generate(request: HeadshotRequest): Promise<Buffer> {
    this.requests.push(request);
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

function setup(fields: Partial<GenerationRecord> = {}) {
  const queue = new FakeProviderQueue();
  const cap = new FakeLikenessCap();
  const provider = new RecordingProvider();
  const id = ulid();
  const generations = new Map<string, GenerationRecord>([
    [
      id,
      {
        id,
        userId: sub,
        status: 'running',
        stage: 'generating',
        progress: 20,
        style: 'professional',
        background: 'studio',
        referenceKeys: ['a.jpg'],
        creditsReserved: 6,
        creditsRefunded: 0,
        imagesSaved: 0,
        slots: {},
        resolution: 'high',
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        ...fields,
      },
    ],
  ]);
  const uploads = new Map([
    ['ref/0.jpg', Buffer.from('face 0')],
    ['ref/1.jpg', Buffer.from('face 1')],
  ]);
  const results = new Map<string, Buffer>();
  // An edit's sources: the caller's headshot H1 (with its original file) and its version V1.
  const stored = new Map([
    ['results/customer-1/G0/original/3.png', Buffer.from('headshot original')],
    ['results/customer-1/G1/original/0.png', Buffer.from('version original')],
    ['results/customer-1/G2/0.jpg', Buffer.from('old square')],
  ]);
  const files = new Map([
    [
      `${sub}|H1`,
      {
        imageKey: 'results/customer-1/G0/3.jpg',
        variants: { original: { key: 'results/customer-1/G0/original/3.png' } },
      },
    ],
    [
      `${sub}|H1#V1`,
      {
        imageKey: 'results/customer-1/G1/0.jpg',
        variants: { original: { key: 'results/customer-1/G1/original/0.png' } },
      },
    ],
    [`${sub}|H2`, { imageKey: 'results/customer-1/G2/0.jpg' }],
  ]);
  const lease = leaseId({ generationId: id, slot: 2, call: 0 });
  queue.leases.set(lease, { taskToken: 't', grantedAt: queue.now - 1_000, leaseUntil: queue.now + 600_000 });
  queue.stored = { ...queue.state(), inFlight: 1 };
  const ports: CallProviderPorts = {
    requireGeneration: async (user, generationId) => {
      const record = generations.get(generationId);
      if (!record || record.userId !== user)
        throw new GenerationNotFoundError(`Generation ${generationId} not found`);
      return record;
    },
    getReferenceBytes: async (key) => uploads.get(key),
    countProviderCall: (generation) => countProviderCall(generation, cap.ports),
    imageProvider: () => provider,
    putResult: async (key, bytes) => {
      results.set(key, bytes);
    },
    returnPermit: (leaseIdOf) => queue.returnPermit(leaseIdOf),
    wakeDispatcher: queue.wakeDispatcher,
    getHeadshot: async (user, headshotId) => files.get(`${user}|${headshotId}`),
    getHeadshotVersion: async (user, headshotId, versionId) =>
      files.get(`${user}|${headshotId}#${versionId}`),
    getResultBytes: async (key) => stored.get(key),
    putPartialImage: async (user, generationId, slot, index, png) => {
      results.set(partialImageKey(user, generationId, slot, index), png);
    },
  };
  const call: ProviderCall = {
    generationId: id,
    userId: sub,
    slot: 2,
    style: 'professional',
    background: 'studio',
    prompt: 'a headshot',
    references: ['ref/0.jpg', 'ref/1.jpg'],
    leaseId: lease,
  };
  return { queue, cap, provider, generations, uploads, results, stored, ports, call, id, lease };
}

describe('callProvider: one provider call under a lease', () => {
  it('stores the image untouched under work/, gives the permit back, wakes the dispatcher and counts the call', async () => {
    const { queue, cap, provider, results, ports, call, id, lease } = setup();
    const result = await callProvider(call, ports);

    expect(result).toEqual({
      slot: 2,
      outcome: 'generated',
      headshotId: null,
      retryAfterMs: null,
      provider: 'recording',
    });
    expect(results.get(providerImageKey(sub, id, 2))).toEqual(IMAGE);
    expect(provider.requests).toEqual([
      {
        prompt: slotPrompt('a headshot', 2),
        references: [Buffer.from('face 0'), Buffer.from('face 1')],
        style: 'professional',
        background: 'studio',
        slot: 2,
        generationId: id,
        resolution: 'high',
      },
    ]);
    expect(queue.leases.get(lease)?.permitReturned).toBeDefined();
    expect(queue.state().inFlight).toBe(0);
    expect(queue.wakeUps).toEqual([{ reason: 'permit', delaySeconds: 0 }]);
    expect(cap.dayOf(sub, id).calls).toBe(1);
  });

  it("sends the look's prompt with the slot's own variation, or the one a regeneration names", async () => {
    const { provider, ports, call } = setup();
    await callProvider({ ...call, slot: 4 }, ports);
    expect(provider.requests[0]?.prompt).toBe(`a headshot ${variationSentence(4)}`);
    expect(provider.requests[0]?.prompt).toContain(SLOT_VARIATIONS[4]!.expression);

    const regeneration = setup({ slotCount: 1, variation: 3 });
    await callProvider({ ...regeneration.call, slot: 0 }, regeneration.ports);
    expect(regeneration.provider.requests[0]?.prompt).toBe(`a headshot ${variationSentence(3)}`);
  });

  it("sends the generation's safety identifier with the call", async () => {
    const safetyIdentifier = 'e'.repeat(64);
    const { provider, ports, call } = setup({ safetyIdentifier });
    await callProvider(call, ports);
    expect(provider.requests[0]).toMatchObject({ safetyIdentifier });
  });

  it('returns a slot saved before without calling the provider again', async () => {
    const { provider, ports, call, cap, id } = setup({ slots: { '2': 'headshot-9' } });
    expect(await callProvider(call, ports)).toMatchObject({ outcome: 'saved', headshotId: 'headshot-9' });
    expect(provider.requests).toEqual([]);
    expect(cap.dayOf(sub, id).calls).toBe(0);
  });

  it('answers a 429 as throttled with its wait, keeping the permit for ReleaseProviderSlot', async () => {
    const { provider, results, queue, ports, call } = setup();
    provider.answer = new ProviderThrottledError('slow down', 7_000);
    expect(await callProvider(call, ports)).toMatchObject({
      outcome: 'throttled',
      retryAfterMs: 7_000,
      provider: null,
    });
    provider.answer = new ProviderThrottledError('slow down');
    expect(await callProvider(call, ports)).toMatchObject({ outcome: 'throttled', retryAfterMs: null });
    expect(results.size).toBe(0);
    expect(queue.state().inFlight).toBe(1);
    expect(queue.wakeUps).toEqual([]);
  });

  it('wakes nobody when the permit came back already (a retried Task), or without a lease (older executions)', async () => {
    const { queue, ports, call, lease } = setup();
    await queue.returnPermit(lease);
    await callProvider(call, ports);
    await callProvider({ ...call, leaseId: undefined }, ports);
    expect(queue.wakeUps).toEqual([]);
  });
});

describe('callProvider: no call made', () => {
  it('refuses a generation compensated meanwhile', async () => {
    const { provider, ports, call } = setup({ closedAt: new Date().toISOString() });
    await expect(callProvider(call, ports)).rejects.toThrow(GenerationClosedError);
    expect(provider.requests).toEqual([]);
  });

  it('fails when the generation is gone', async () => {
    const { generations, provider, ports, call, id } = setup();
    generations.delete(id);
    await expect(callProvider(call, ports)).rejects.toThrow(GenerationNotFoundError);
    expect(provider.requests).toEqual([]);
  });

  it('fails when a reference photo is gone, counting no call', async () => {
    const { uploads, provider, cap, ports, call, id } = setup();
    uploads.delete('ref/1.jpg');
    await expect(callProvider(call, ports)).rejects.toThrow(ReferenceMissingError);
    expect(provider.requests).toEqual([]);
    expect(cap.dayOf(sub, id).calls).toBe(0);
  });

  it('makes no call for a generation the likeness cap stopped', async () => {
    const { provider, ports, call } = setup({ likenessStop: 'mismatch' });
    await expect(callProvider(call, ports)).rejects.toThrow(LikenessStoppedError);
    expect(provider.requests).toEqual([]);
  });

  it("makes no call once the day's calls are used up, stopping the generation", async () => {
    const { provider, cap, ports, call, id } = setup();
    Object.assign(cap.dayOf(sub, id), { allowance: 4, calls: 4 });
    await expect(callProvider(call, ports)).rejects.toThrow(ProviderCallCapError);
    expect(provider.requests).toEqual([]);
    expect(cap.stops.get(id)).toBe('limit');
  });
});

describe('callProvider: failures after the call', () => {
  it("passes the provider's failure on, keeping the permit for ReleaseProviderSlot", async () => {
    const { provider, queue, results, ports, call } = setup();
    provider.answer = new ProviderUnavailableError('502');
    await expect(callProvider(call, ports)).rejects.toThrow(ProviderUnavailableError);
    expect(results.size).toBe(0);
    expect(queue.state().inFlight).toBe(1);
  });

  it('fails when the image cannot be stored, keeping the permit so a retry of the Task still holds it', async () => {
    const { queue, ports, call } = setup();
    await expect(callProvider(call, { ...ports, putResult: failing() })).rejects.toThrow('port down');
    expect(queue.state().inFlight).toBe(1);
    expect(queue.wakeUps).toEqual([]);
  });

  it('fails when the permit cannot be given back, the image stored (the release gives it back)', async () => {
    const { results, ports, call } = setup();
    await expect(callProvider(call, { ...ports, returnPermit: failing() })).rejects.toThrow('port down');
    expect(results.size).toBe(1);
  });
});

describe('callProvider: an edit sends the headshot itself', () => {
  const edit = (request: EditRequest, sourceVersionId?: string) => ({
    slotCount: 1,
    edit: { headshotId: 'H1', ...(sourceVersionId ? { sourceVersionId } : {}), request },
  });
  const OUTFIT: EditRequest = { kind: 'outfit', outfit: 'suit-and-tie' };

  it("sends the headshot's original file with the edit's prompt, as an edit", async () => {
    const { provider, results, ports, call, id } = setup(edit(OUTFIT));
    expect(await callProvider({ ...call, slot: 0 }, ports)).toMatchObject({ outcome: 'generated' });
    expect(provider.requests[0]).toMatchObject({
      prompt: editPrompt(OUTFIT),
      purpose: 'edit',
      edit: { image: Buffer.from('headshot original'), request: OUTFIT },
    });
    expect(results.get(providerImageKey(sub, id, 0))).toEqual(IMAGE);
  });

  it('takes partial images for an edit only, kept under partial/ (a first generation streams none)', async () => {
    const { provider, results, ports, call, id } = setup(edit(OUTFIT));
    await callProvider({ ...call, slot: 0 }, ports);
    await provider.requests[0]!.onPartialImage!(Buffer.from('partial 1'), 1);
    expect(results.get(partialImageKey(sub, id, 0, 1))).toEqual(Buffer.from('partial 1'));
    const plain = setup();
    await callProvider(plain.call, plain.ports);
    expect(plain.provider.requests[0]!.onPartialImage).toBeUndefined();
  });

  it("sends the named version's original for an upscale, as an upscale", async () => {
    const { provider, ports, call } = setup(edit({ kind: 'upscale' }, 'V1'));
    await callProvider({ ...call, slot: 0 }, ports);
    expect(provider.requests[0]).toMatchObject({
      prompt: editPrompt({ kind: 'upscale' }),
      purpose: 'upscale',
      edit: { image: Buffer.from('version original'), request: { kind: 'upscale' } },
    });
  });

  it('sends the square of a headshot saved before there were variants', async () => {
    const { provider, ports, call } = setup({ edit: { headshotId: 'H2', request: OUTFIT } });
    await callProvider({ ...call, slot: 0 }, ports);
    expect(provider.requests[0]?.edit?.image).toEqual(Buffer.from('old square'));
  });

  it('makes and counts no call when the headshot, the version or its file is gone', async () => {
    for (const fields of [
      { edit: { headshotId: 'H404', request: OUTFIT } },
      edit(OUTFIT, 'V404'),
      edit(OUTFIT),
    ]) {
      const { provider, cap, stored, ports, call, id } = setup(fields);
      stored.delete('results/customer-1/G0/original/3.png');
      await expect(callProvider({ ...call, slot: 0 }, ports)).rejects.toThrow(ReferenceMissingError);
      expect(provider.requests).toEqual([]);
      expect(cap.dayOf(sub, id).calls).toBe(0);
    }
  });

  it('fails when the results bucket cannot be read, making no call', async () => {
    const { provider, ports, call } = setup(edit(OUTFIT));
    await expect(callProvider({ ...call, slot: 0 }, { ...ports, getResultBytes: failing() })).rejects.toThrow(
      'port down',
    );
    expect(provider.requests).toEqual([]);
  });
});
