import { describe, expect, it } from 'vitest';
import { quotaRules } from '../../../functions/adapters/quotas';
import {
  editHeadshot,
  type EditAsked,
  type EditHeadshotPorts,
} from '../../../functions/use-cases/edit-headshot';
import { HEADSHOT_NOT_FOUND } from '../../../functions/use-cases/stored-photo-set';
import { InsufficientCreditsError } from '../../../functions/domain/credits';
import { EDIT_SLOTS } from '../../../functions/domain/edits';
import { ItemNotFoundError, PhotosExpiredError } from '../../../functions/domain/errors';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { WorkflowStartFailedError } from '../../../functions/domain/errors';
import { failing } from './fakes/failures';
import { finishedHeadshotWorld } from './fakes/finished-headshot';

const SUB = 'user-1';
const STARTER = { sub: SUB, email: undefined };
const KEYS = [`uploads/${SUB}/01KDWYDY00CCCCCCCCCCCCCCCC/0`];
const COLOUR: EditAsked = {
  request: { kind: 'background', background: { type: 'colour', colour: '#1f6feb' } },
};

/**
 * A finished generation of the caller with one headshot and one version of it, the photo still stored, and the
 * caller's credits.
 */
async function world(credits = 1) {
  const w = await finishedHeadshotWorld(SUB, KEYS, { style: 'professional', background: 'office' }, credits);
  // The versions the caller has, as `<sub>|<headshotId>#<versionId>`.
  const versions = new Set([`${SUB}|${w.headshotId}#v1`]);
  const reads: string[] = [];
  const ports: EditHeadshotPorts = {
    ...w.ports,
    consumeEdit: (sub) => w.quotas.consumeQuota({ sub }, quotaRules().edits),
    getHeadshot: async (sub, id) => {
      reads.push(id);
      return w.getHeadshot(sub, id);
    },
    getHeadshotVersion: async (sub, id, versionId) =>
      versions.has(`${sub}|${id}#${versionId}`) ? { id: versionId } : undefined,
    getGeneration: w.generations.getGeneration,
  };
  return { ...w, ports, reads };
}

describe('editHeadshot', () => {
  it("starts a 1-credit, one-slot generation carrying the edit, with the headshot's look and photos", async () => {
    const { ports, headshotId, generations, executions, ledger } = await world();
    const started = await editHeadshot(STARTER, headshotId, COLOUR, ports);
    expect(started).toMatchObject({
      creditsReserved: 1,
      credits: 0,
      style: 'professional',
      background: 'office',
    });
    expect(generations.stored(SUB, started.id)).toMatchObject({
      slotCount: 1,
      referenceKeys: KEYS,
      edit: { headshotId, request: COLOUR.request },
    });
    expect(generations.stored(SUB, started.id)!.edit).not.toHaveProperty('sourceVersionId');
    expect(generations.stored(SUB, started.id)!.regeneratedFrom).toBeUndefined();
    expect(executions.started[0]!.slots).toEqual(EDIT_SLOTS);
    expect(ledger.balance(SUB)).toBe(0);
  });

  it('edits the version it is asked to, naming it as the source', async () => {
    const { ports, headshotId, generations } = await world();
    const started = await editHeadshot(
      STARTER,
      headshotId,
      { request: { kind: 'upscale' }, versionId: 'v1' },
      ports,
    );
    expect(generations.stored(SUB, started.id)!.edit).toEqual({
      headshotId,
      sourceVersionId: 'v1',
      request: { kind: 'upscale' },
    });
  });

  it('counts every attempt and refuses past the hourly edit quota, reading and spending nothing', async () => {
    const { ports, headshotId, quotas, reads, ledger } = await world();
    quotas.used.set(`${SUB}|edits`, quotaRules().edits.limit);
    await expect(editHeadshot(STARTER, headshotId, COLOUR, ports)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(reads).toEqual([]);
    expect(ledger.balance(SUB)).toBe(1);
  });

  it("answers the same 404 for an unknown headshot or version, another user's, and one whose generation is gone", async () => {
    const { ports, headshotId, generations, original, ledger, executions } = await world();
    const notFound = new ItemNotFoundError(HEADSHOT_NOT_FOUND);
    await expect(editHeadshot(STARTER, 'headshot-404', COLOUR, ports)).rejects.toEqual(notFound);
    await expect(editHeadshot(STARTER, headshotId, { ...COLOUR, versionId: 'v404' }, ports)).rejects.toEqual(
      notFound,
    );
    const other = { sub: 'user-2', email: undefined };
    await expect(editHeadshot(other, headshotId, COLOUR, ports)).rejects.toEqual(notFound);
    await expect(editHeadshot(other, headshotId, { ...COLOUR, versionId: 'v1' }, ports)).rejects.toEqual(
      notFound,
    );
    await generations.deleteGeneration(SUB, original.id);
    await expect(editHeadshot(STARTER, headshotId, COLOUR, ports)).rejects.toEqual(notFound);
    expect(ledger.balance(SUB)).toBe(1);
    expect(executions.started).toEqual([]);
  });

  it('says the photos expired when they are no longer stored, spending nothing', async () => {
    const { ports, headshotId, buckets, ledger } = await world();
    await buckets.deleteObject('uploads', KEYS[0]!);
    await expect(editHeadshot(STARTER, headshotId, COLOUR, ports)).rejects.toBeInstanceOf(PhotosExpiredError);
    expect(ledger.balance(SUB)).toBe(1);
  });

  it('refuses a balance under its 1 credit, starting nothing', async () => {
    const { ports, headshotId, executions } = await world(0);
    await expect(editHeadshot(STARTER, headshotId, COLOUR, ports)).rejects.toEqual(
      new InsufficientCreditsError(0, 1),
    );
    expect(executions.started).toEqual([]);
  });

  it('gives the credit back when the workflow does not start', async () => {
    const { ports, headshotId, executions, ledger } = await world();
    executions.refuseWith = new Error('Step Functions down');
    await expect(editHeadshot(STARTER, headshotId, COLOUR, ports)).rejects.toBeInstanceOf(
      WorkflowStartFailedError,
    );
    expect(ledger.balance(SUB)).toBe(1);
  });

  it('fails when a port fails (the version read, or S3 checking the photos), spending nothing', async () => {
    const { ports, headshotId, ledger } = await world();
    const down = new Error('table down');
    await expect(
      editHeadshot(
        STARTER,
        headshotId,
        { ...COLOUR, versionId: 'v1' },
        { ...ports, getHeadshotVersion: failing(down) },
      ),
    ).rejects.toBe(down);
    await expect(
      editHeadshot(STARTER, headshotId, COLOUR, { ...ports, headObject: failing(new Error('S3 down')) }),
    ).rejects.toThrow('S3 down');
    expect(ledger.balance(SUB)).toBe(1);
  });
});
