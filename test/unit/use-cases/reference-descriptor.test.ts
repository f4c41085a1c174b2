import { describe, expect, it } from 'vitest';
import {
  currentReferenceDescriptor,
  loadReferences,
  referencesNeeded,
  type ReferenceDescriptorPorts,
} from '../../../functions/use-cases/reference-descriptor';
import { ReferenceMissingError } from '../../../functions/domain/generation-errors';
import { decodeDescriptor, DESCRIPTOR_MODEL, encodeDescriptor } from '../../../functions/domain/likeness';
import { failing } from './fakes/failures';
import { FakeGenerations, type FakeGeneration } from './fakes/generations';
import { descriptorOf } from './fakes/photos';
import { FakeBuckets } from './fakes/storage';

const SUB = 'user-1';
const OLD = encodeDescriptor([0.5, 0.5, 0.5, 0.5]);

/** A generation with a descriptor of `fields`, its reference crops in the uploads bucket, and the identity model. */
function world(fields: Partial<FakeGeneration> = {}) {
  const generations = new FakeGenerations();
  const buckets = new FakeBuckets();
  const generation = generations.seed({ status: 'running', referenceDescriptor: OLD, ...fields });
  /** Crops whose bytes name the person the model sees in them (`none`: no face). */
  const crops = (...people: string[]) => people.map((person) => Buffer.from(person));
  const read: string[] = [];
  const ports: ReferenceDescriptorPorts = {
    getReferenceBytes: (key) => buckets.getObjectBytes('uploads', key),
    referenceFaceDescriptor: async (crop) => {
      read.push(crop.toString());
      return crop.toString() === 'none' ? undefined : descriptorOf(crop.toString());
    },
    saveReferenceDescriptor: generations.saveReferenceDescriptor,
  };
  const stored = () => generations.stored(SUB, generation.id)!;
  return { generations, buckets, generation, crops, read, ports, stored };
}

describe('referencesNeeded', () => {
  it('is true only for a descriptor of another (or an unnamed) model', () => {
    expect(referencesNeeded({ referenceDescriptor: OLD })).toBe(true);
    expect(referencesNeeded({ referenceDescriptor: OLD, referenceDescriptorModel: 'human-faceres' })).toBe(
      true,
    );
    expect(referencesNeeded({ referenceDescriptor: OLD, referenceDescriptorModel: DESCRIPTOR_MODEL })).toBe(
      false,
    );
    expect(referencesNeeded({})).toBe(false);
  });
});

describe('loadReferences', () => {
  it('reads the crops in the order given, and names the one that is gone', async () => {
    const { buckets, ports } = world();
    buckets.put('uploads', 'a.jpg', 'A');
    buckets.put('uploads', 'b.jpg', 'B');
    expect((await loadReferences(['b.jpg', 'a.jpg'], ports)).map(String)).toEqual(['B', 'A']);
    await expect(loadReferences(['a.jpg', 'c.jpg'], ports)).rejects.toThrow(
      new ReferenceMissingError('Reference c.jpg is missing'),
    );
  });
});

describe('currentReferenceDescriptor', () => {
  it('uses the saved descriptor of the current model without looking at the crops', async () => {
    const { generation, crops, read, ports } = world({ referenceDescriptorModel: DESCRIPTOR_MODEL });
    expect(await currentReferenceDescriptor(generation, crops('a'), ports)).toBe(OLD);
    expect(read).toEqual([]);
  });

  it('has none for a generation prepared before likeness existed', async () => {
    const { generation, crops, ports } = world({ referenceDescriptor: undefined });
    expect(await currentReferenceDescriptor(generation, crops('a'), ports)).toBeUndefined();
  });

  it("recomputes another model's descriptor from the crops with a face, and saves it for the other slots", async () => {
    const { generation, crops, ports, stored } = world({ referenceDescriptorModel: 'human-faceres' });
    const descriptor = await currentReferenceDescriptor(generation, crops('a', 'none', 'a'), ports);
    expect(decodeDescriptor(descriptor!)).toEqual([1, 0, 0, 0]);
    expect(stored()).toMatchObject({
      referenceDescriptor: descriptor,
      referenceDescriptorModel: DESCRIPTOR_MODEL,
    });
  });

  it('has none when the current model finds no face in any crop, saving nothing', async () => {
    const { generation, crops, ports, stored } = world();
    expect(await currentReferenceDescriptor(generation, crops('none'), ports)).toBeUndefined();
    expect(stored().referenceDescriptor).toBe(OLD);
  });

  it('does not save it on a generation closed meanwhile, but still answers it', async () => {
    const { generations, generation, crops, ports, stored } = world();
    await generations.closeGeneration(SUB, generation.id);
    expect(await currentReferenceDescriptor(generation, crops('b'), ports)).toBeDefined();
    expect(stored().referenceDescriptor).toBe(OLD);
  });

  it('fails when a crop cannot be read by the model', async () => {
    const { generation, crops, ports } = world();
    const broken = { ...ports, referenceFaceDescriptor: failing(new Error('corrupt JPEG')) };
    await expect(currentReferenceDescriptor(generation, crops('a'), broken)).rejects.toThrow('corrupt JPEG');
  });
});
