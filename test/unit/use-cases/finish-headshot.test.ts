import { describe, expect, it } from 'vitest';
import { ProviderInvalidOutputError } from '../../../functions/adapters/image-providers/types';
import {
  finishHeadshot,
  ProviderImageMissingError,
  type FinishHeadshotPorts,
  type SlotToFinish,
} from '../../../functions/use-cases/finish-headshot';
import {
  deleteHeadshotFiles,
  makeHeadshotFiles,
  storeHeadshotFiles,
} from '../../../functions/use-cases/headshot-files';
import {
  currentReferenceDescriptor,
  loadReferences,
} from '../../../functions/use-cases/reference-descriptor';
import { GenerationClosedError, ReferenceMissingError } from '../../../functions/domain/generation-errors';
import type { EditRequest } from '../../../functions/domain/edits';
import { HeadshotDeletedError } from '../../../functions/domain/headshot-versions';
import {
  DESCRIPTOR_MODEL,
  encodeDescriptor,
  LikenessRejectedError,
} from '../../../functions/domain/likeness';
import { partialImageKey, providerImageKey } from '../../../functions/domain/object-keys';
import { failing, failingFirst } from './fakes/failures';
import { FakeGenerations, type FakeGeneration } from './fakes/generations';
import { FakeHeadshotCodec } from './fakes/headshot-files';
import { FakeHeadshots } from './fakes/headshots';
import { FakeHeadshotVersions } from './fakes/headshot-versions';
import { descriptorOf } from './fakes/photos';
import { FakeBuckets } from './fakes/storage';

const SUB = 'user-1';
const DESCRIPTOR = encodeDescriptor([1, 0, 0, 0]);
const REFERENCES = [`uploads/${SUB}/batch/normalized/0.jpg`];

/** A generation waiting for slot 3's headshot, the provider's image in `work/`, and the files' codec. */
function world(fields: Partial<FakeGeneration> = {}) {
  const generations = new FakeGenerations();
  const buckets = new FakeBuckets();
  const codec = new FakeHeadshotCodec();
  const gallery = new FakeHeadshots();
  const versions = new FakeHeadshotVersions((sub, id) => gallery.records.get(`${sub}|${id}`), generations);
  const generation = generations.seed({
    status: 'running',
    progress: 45,
    referenceDescriptor: DESCRIPTOR,
    referenceDescriptorModel: DESCRIPTOR_MODEL,
    ...fields,
  });
  const input: SlotToFinish = {
    generationId: generation.id,
    userId: SUB,
    slot: 3,
    style: 'professional',
    background: 'office',
    references: REFERENCES,
    provider: 'openai',
  };
  const workKey = providerImageKey(SUB, generation.id, 3);
  buckets.put('results', workKey, 'provider image', 'image/png');
  buckets.put('uploads', REFERENCES[0]!, 'a');
  const files = codec.portsWith(buckets);
  const descriptorPorts = {
    getReferenceBytes: (key: string) => buckets.getObjectBytes('uploads', key),
    referenceFaceDescriptor: async (crop: Buffer) => descriptorOf(crop.toString()),
    saveReferenceDescriptor: generations.saveReferenceDescriptor,
  };
  const ports: FinishHeadshotPorts = {
    requireGeneration: generations.requireGeneration,
    getProviderImage: (key) => buckets.getObjectBytes('results', key),
    deleteProviderImage: (key) => buckets.deleteObject('results', key),
    saveHeadshot: generations.saveHeadshot,
    saveHeadshotVersion: versions.saveHeadshotVersion,
    likenessThreshold: () => 70,
    loadReferences: (keys) => loadReferences(keys, descriptorPorts),
    currentReferenceDescriptor: (g, refs) => currentReferenceDescriptor(g, refs, descriptorPorts),
    makeHeadshotFiles: (image, provider, descriptor, threshold, transparent) =>
      makeHeadshotFiles(image, provider, descriptor, threshold, transparent, files),
    storeHeadshotFiles: (sub, gid, slot, made) => storeHeadshotFiles(sub, gid, slot, made, files),
    deleteHeadshotFiles: (stored) => deleteHeadshotFiles(stored, files),
  };
  const stored = () => generations.stored(SUB, generation.id)!;
  const headshotFiles = () => buckets.keys('results', 'results/');
  const workImage = () => buckets.stored('results', workKey);
  return {
    generations,
    buckets,
    codec,
    generation,
    input,
    ports,
    stored,
    headshotFiles,
    workImage,
    gallery,
    versions,
  };
}

describe('finishHeadshot', () => {
  it("saves the slot's headshot with its likeness, files and credits, and removes the provider's image", async () => {
    const { input, ports, generations, stored, headshotFiles, workImage } = world();
    const result = await finishHeadshot(input, ports);
    expect(result).toEqual({ slot: 3, outcome: 'saved', headshotId: 'headshot-1', retryAfterMs: null });
    expect(stored()).toMatchObject({ slots: { 3: 'headshot-1' }, imagesSaved: 1, progress: 53 });
    expect(generations.headshots.get('headshot-1')).toMatchObject({
      slot: 3,
      style: 'professional',
      background: 'office',
      likeness: 90,
      provider: 'openai',
      creditsUsed: 1,
      imageKey: `results/${SUB}/${input.generationId}/3.jpg`,
    });
    expect(headshotFiles()).toHaveLength(4);
    expect(workImage()).toBeUndefined();
  });

  it('records 2 credits for a high-resolution slot', async () => {
    const { input, ports, generations } = world({ creditsReserved: 12, resolution: 'high' });
    await finishHeadshot(input, ports);
    expect(generations.headshots.get('headshot-1')).toMatchObject({ creditsUsed: 2, resolution: 'high' });
  });

  it("records the generation's outfit and a regeneration's variation on the headshot, and neither when absent", async () => {
    const dressed = world({ outfit: 'blazer', slotCount: 1, creditsReserved: 1, variation: 4 });
    await finishHeadshot(dressed.input, dressed.ports);
    expect(dressed.generations.headshots.get('headshot-1')).toMatchObject({ outfit: 'blazer', variation: 4 });
    const plain = world();
    await finishHeadshot(plain.input, plain.ports);
    expect(plain.generations.headshots.get('headshot-1')).not.toHaveProperty('outfit');
    expect(plain.generations.headshots.get('headshot-1')).not.toHaveProperty('variation');
  });

  it("writes the paying team on the headshot from the generation's payer, and none for a customer-paid one", async () => {
    const team = world({ payer: { team: 'team-1' } });
    await finishHeadshot(team.input, team.ports);
    expect(team.generations.headshots.get('headshot-1')).toMatchObject({ teamId: 'team-1' });
    const own = world({ payer: 'user' });
    await finishHeadshot(own.input, own.ports);
    expect(own.generations.headshots.get('headshot-1')).not.toHaveProperty('teamId');
  });

  it('answers the headshot of a slot saved before (a task run again), making nothing', async () => {
    const { input, ports, codec, workImage } = world({ slots: { 3: 'headshot-7' } });
    expect((await finishHeadshot(input, ports)).headshotId).toBe('headshot-7');
    expect(codec.encoded).toEqual([]);
    expect(workImage()).toBeUndefined();
  });

  it('keeps nothing for a generation compensated meanwhile', async () => {
    const { input, ports, generations, headshotFiles, workImage } = world();
    await generations.closeGeneration(SUB, input.generationId);
    await expect(finishHeadshot(input, ports)).rejects.toBeInstanceOf(GenerationClosedError);
    expect(headshotFiles()).toEqual([]);
    expect(workImage()).toBeUndefined();
  });

  it('deletes the files it stored when the generation closed while they were written', async () => {
    const { input, ports, generations, headshotFiles, stored } = world();
    const closing: FinishHeadshotPorts = {
      ...ports,
      saveHeadshot: async (headshot) => {
        await generations.closeGeneration(SUB, input.generationId);
        return generations.saveHeadshot(headshot);
      },
    };
    await expect(finishHeadshot(input, closing)).rejects.toBeInstanceOf(GenerationClosedError);
    expect(headshotFiles()).toEqual([]);
    expect(stored().slots).toEqual({});
  });

  it('fails without the provider image, which is not retried', async () => {
    const { input, ports, buckets } = world();
    buckets.objects.clear();
    await expect(finishHeadshot(input, ports)).rejects.toBeInstanceOf(ProviderImageMissingError);
  });

  it('refuses bytes that are no image as the provider’s invalid output', async () => {
    const { input, ports, buckets, workImage } = world();
    buckets.put('results', providerImageKey(SUB, input.generationId, 3), 'not an image');
    await expect(finishHeadshot(input, ports)).rejects.toBeInstanceOf(ProviderInvalidOutputError);
    expect(workImage()).toBeUndefined();
  });

  it('stores nothing of a headshot that does not look like the customer', async () => {
    const { input, ports, codec, headshotFiles, stored, workImage } = world();
    codec.scene = { likeness: 69 };
    await expect(finishHeadshot(input, ports)).rejects.toBeInstanceOf(LikenessRejectedError);
    expect(codec.measured).toEqual([{ referenceDescriptor: DESCRIPTOR, threshold: 70 }]);
    expect(headshotFiles()).toEqual([]);
    expect(stored().slots).toEqual({});
    expect(workImage()).toBeUndefined();
  });

  it("deletes the slot's partial images (an edit's preview) whether it saves or refuses the headshot", async () => {
    for (const likeness of [90, 69]) {
      const { input, ports, codec, buckets } = world();
      codec.scene = { likeness };
      const partial = partialImageKey(SUB, input.generationId, 3, 1);
      buckets.put('results', partial, 'partial', 'image/png');
      await finishHeadshot(input, ports).catch(() => undefined);
      expect(buckets.stored('results', partial)).toBeUndefined();
    }
  });

  it("recomputes an earlier model's descriptor from the references before measuring", async () => {
    const { input, ports, codec, stored } = world({ referenceDescriptorModel: undefined });
    await finishHeadshot(input, ports);
    const current = encodeDescriptor(descriptorOf('a'));
    expect(codec.measured[0]!.referenceDescriptor).toBe(current);
    expect(stored().referenceDescriptorModel).toBe(DESCRIPTOR_MODEL);
  });

  it('fails when a reference needed for that is gone', async () => {
    const { input, ports, buckets } = world({ referenceDescriptorModel: undefined });
    await buckets.deleteObject('uploads', REFERENCES[0]!);
    await expect(finishHeadshot(input, ports)).rejects.toBeInstanceOf(ReferenceMissingError);
  });

  it("leaves the provider's image for the retry of a DynamoDB throttle", async () => {
    const { input, ports, workImage } = world();
    const throttle = Object.assign(new Error('slow down'), {
      name: 'ProvisionedThroughputExceededException',
    });
    const throttled = { ...ports, saveHeadshot: failingFirst(1, throttle, ports.saveHeadshot) };
    await expect(finishHeadshot(input, throttled)).rejects.toThrow('slow down');
    expect(workImage()).toBeDefined();
    expect((await finishHeadshot(input, throttled)).outcome).toBe('saved');
    expect(workImage()).toBeUndefined();
  });

  it("still answers the saved headshot when the provider's image cannot be deleted", async () => {
    const { input, ports } = world();
    const stuck = { ...ports, deleteProviderImage: failing(new Error('bucket down')) };
    expect((await finishHeadshot(input, stuck)).outcome).toBe('saved');
  });
});

describe('finishHeadshot of an edit (a version, issue 36)', () => {
  const ROOT = 'headshot-root';

  /** An edit's one-slot generation of `ROOT` (slot 3 as the world's; the slot number does not matter here). */
  function editWorld(request: EditRequest = { kind: 'outfit', outfit: 'blazer' }, sourceVersionId?: string) {
    const edit = { headshotId: ROOT, request, ...(sourceVersionId ? { sourceVersionId } : {}) };
    const w = world({ edit, slotCount: 1, creditsReserved: 1 });
    w.gallery.seed(SUB, ROOT);
    return w;
  }

  it('saves a version of the edited headshot, not a gallery headshot, and records it on the slot', async () => {
    const { input, ports, generations, gallery, versions, stored, workImage } = editWorld(
      { kind: 'retouch', strength: 'polished' },
      'version-0000',
    );
    const result = await finishHeadshot(input, ports);
    expect(result).toEqual({ slot: 3, outcome: 'saved', headshotId: 'version-0001', retryAfterMs: null });
    expect(generations.headshots.size).toBe(0);
    expect(stored()).toMatchObject({ slots: { 3: 'version-0001' }, imagesSaved: 1 });
    expect(await versions.listHeadshotVersions(SUB, ROOT)).toMatchObject([
      {
        id: 'version-0001',
        headshotId: ROOT,
        sourceVersionId: 'version-0000',
        edit: { kind: 'retouch', strength: 'polished' },
        transparent: false,
        likeness: 90,
        creditsUsed: 1,
        imageKey: `results/${SUB}/${input.generationId}/3.jpg`,
      },
    ]);
    expect(gallery.records.get(`${SUB}|${ROOT}`)?.versionCount).toBe(1);
    expect(workImage()).toBeUndefined();
  });

  it('keeps the alpha channel of a transparent background: PNG square, portrait and original', async () => {
    const { input, ports, versions, buckets } = editWorld({
      kind: 'background',
      background: { type: 'transparent' },
    });
    await finishHeadshot(input, ports);
    const [version] = await versions.listHeadshotVersions(SUB, ROOT);
    expect(version).toMatchObject({
      transparent: true,
      imageKey: `results/${SUB}/${input.generationId}/3.png`,
    });
    expect(version?.variants?.portrait.key).toBe(`results/${SUB}/${input.generationId}/portrait/3.png`);
    expect(buckets.stored('results', version!.imageKey)?.contentType).toBe('image/png');
  });

  it('answers the version of a slot saved before (a task run again), saving no second one', async () => {
    const { input, ports, versions } = editWorld();
    await finishHeadshot(input, ports);
    expect((await finishHeadshot(input, ports)).headshotId).toBe('version-0001');
    expect(await versions.listHeadshotVersions(SUB, ROOT)).toHaveLength(1);
  });

  it('deletes its files and fails when the headshot was deleted meanwhile (the slot is refunded)', async () => {
    const { input, ports, gallery, headshotFiles, stored } = editWorld();
    await gallery.deleteHeadshot(SUB, ROOT);
    await expect(finishHeadshot(input, ports)).rejects.toBeInstanceOf(HeadshotDeletedError);
    expect(headshotFiles()).toEqual([]);
    expect(stored().slots).toEqual({});
  });

  it('stores no version that does not look like the customer', async () => {
    const { input, ports, codec, versions, headshotFiles } = editWorld();
    codec.scene = { likeness: 50 };
    await expect(finishHeadshot(input, ports)).rejects.toBeInstanceOf(LikenessRejectedError);
    expect(await versions.listHeadshotVersions(SUB, ROOT)).toEqual([]);
    expect(headshotFiles()).toEqual([]);
  });

  it('deletes its files when the generation closed while the version was saved', async () => {
    const { input, ports, generations, versions, headshotFiles } = editWorld();
    const closing: FinishHeadshotPorts = {
      ...ports,
      saveHeadshotVersion: async (version) => {
        await generations.closeGeneration(SUB, input.generationId);
        return versions.saveHeadshotVersion(version);
      },
    };
    await expect(finishHeadshot(input, closing)).rejects.toBeInstanceOf(GenerationClosedError);
    expect(headshotFiles()).toEqual([]);
  });

  it('fails with the table when the version cannot be saved, leaving the slot empty', async () => {
    const { input, ports, versions, stored } = editWorld();
    const down = { ...ports, saveHeadshotVersion: failing(new Error('table down')) };
    await expect(finishHeadshot(input, down)).rejects.toThrow('table down');
    expect(await versions.listHeadshotVersions(SUB, ROOT)).toEqual([]);
    expect(stored().slots).toEqual({});
  });
});
