import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { photoCheckSk, userPk } from '../../functions/adapters/support/keys';
import { storageSettings } from '../../functions/config/storage';
import sharp from 'sharp';
import { getUser } from '../../functions/adapters/ledger';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, pollGeneration, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * POST /api/photo-checks on the shared local stack: the route table behind the local gateway and JWT authorizer,
 * uploads in s3rver, the cache in DynamoDB Local, and the vision module on the fixtures.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

interface CheckView {
  key: string;
  verdict: 'good' | 'warning' | 'rejected';
  score: number;
  reasons: { code: string; message: string }[];
  duplicateOf?: string;
}

async function signedUpUser(): Promise<TestUser> {
  const user = await createTestUser(pool);
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return user;
}

const check = (user: TestUser, keys: string[]) =>
  api(gatewayUrl, user.idToken, 'POST', '/api/photo-checks', { keys });

describe('POST /api/photo-checks', () => {
  it('judges each photo in order, marks the other person, and answers a re-check from the cache', async () => {
    const user = await signedUpUser();
    const names = ['obama.jpg', 'biden.jpg', 'obama2.jpg', 'obama3.jpg'];
    const keys = await uploadPhotos(gatewayUrl, user.idToken, names.map(fixturePhoto));
    const first = await check(user, keys);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { checks: CheckView[]; quality: number };
    expect(body.checks.map((c) => c.key)).toEqual(keys);
    expect(body.checks.map((c) => c.verdict)).toEqual(['good', 'rejected', 'good', 'good']);
    expect(body.checks[1]!.reasons.map((r) => r.code)).toEqual(['different_person']);
    expect(body.checks[1]!.score).toBe(0);
    expect(body.quality).toBeGreaterThan(0);
    expect(body.quality).toBeLessThan(100);

    // Same objects, same ETags: the answer comes from the cache, identical, and costs no quota.
    const again = await check(user, keys);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
    // A subset is judged as a set of its own: with biden and one other photo there is no majority to disagree with,
    // so both are warned that the photos may show different people (deliberate change, decision 012: they passed
    // unwarned before).
    const pair = (await (await check(user, keys.slice(0, 2))).json()) as { checks: CheckView[] };
    expect(pair.checks.map((c) => c.verdict)).toEqual(['warning', 'warning']);
    expect(pair.checks.map((c) => c.reasons.map((r) => r.code))).toEqual([
      ['mixed_people'],
      ['mixed_people'],
    ]);
    // Such a set starts no generation (issue 33: nobody can tell which photo is the customer): refused from the checks
    // stored for these versions, nothing spent.
    const start = await api(gatewayUrl, user.idToken, 'POST', '/api/generations', {
      style: 'professional',
      background: 'studio',
      referenceKeys: keys.slice(0, 2),
    });
    expect(start.status).toBe(409);
    expect(await start.json()).toEqual({
      error: {
        code: 'MIXED_PEOPLE',
        message:
          "Your photos seem to show different people, and we can't tell which one is you. Please remove any photo that isn't you.",
      },
    });
    expect((await getUser(user.sub))?.credits).toBe(6);
    // Three calls, eight photo checks answered, four analysed: only those counted against the hourly quota.
    const { Items } = await documentClient().send(
      new QueryCommand({
        TableName: storageSettings().TABLE_NAME,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': userPk(user.sub), ':sk': 'QUOTA#photo-checks#' },
      }),
    );
    expect(Items?.map((i) => i.used as number)).toEqual([4]);
  });

  it("answers 404 for another user's key and for a key never uploaded, revealing nothing; 400 for a bad body", async () => {
    const [owner, other] = await Promise.all([signedUpUser(), signedUpUser()]);
    const [key] = await uploadPhotos(gatewayUrl, owner.idToken, [fixturePhoto('obama.jpg')]);
    const foreign = await check(other, [key!]);
    expect(foreign.status).toBe(404);
    const never = await check(owner, [`${key!.slice(0, -1)}7`]);
    expect(never.status).toBe(404);
    expect(await never.json()).toEqual(await foreign.json());
    expect((await check(owner, [])).status).toBe(400);
    expect((await check(owner, [key!, key!])).status).toBe(400);
    expect((await api(gatewayUrl, '', 'POST', '/api/photo-checks', { keys: [key] })).status).toBe(401);
  });

  it('PrepareReferences runs the same checks: photos without a usable face fail the generation, all refunded', async () => {
    const user = await signedUpUser();
    const landscape = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: '#5d8a66' },
    })
      .jpeg()
      .toBuffer();
    const keys = await uploadPhotos(gatewayUrl, user.idToken, [
      { name: 'landscape.jpg', bytes: landscape, contentType: 'image/jpeg' },
    ]);
    const res = await api(gatewayUrl, user.idToken, 'POST', '/api/generations', {
      style: 'professional',
      background: 'studio',
      referenceKeys: keys,
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const { final } = await pollGeneration(gatewayUrl, user.idToken, id);
    expect(final).toMatchObject({ status: 'failed', creditsRefunded: 6, headshots: [] });
    expect(final.error).toEqual({
      code: 'NO_USABLE_PHOTOS',
      message:
        'None of your photos could be used: photo 1 has no face we could find. Please upload clear photos of yourself.',
    });
    expect((await getUser(user.sub))?.credits).toBe(6);
    await expectLedgerBalanced(user.sub);
  });
});

describe('POST /api/photo-checks: the same picture twice', () => {
  const quotaUsed = async (sub: string) => {
    const { Items } = await documentClient().send(
      new QueryCommand({
        TableName: storageSettings().TABLE_NAME,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': userPk(sub), ':sk': 'QUOTA#photo-checks#' },
      }),
    );
    return (Items ?? []).reduce((sum, item) => sum + (item.used as number), 0);
  };

  it('rejects every extra copy (EXIF-rotated, HEIC, re-encoded, letterboxed) as duplicate of the one kept; the rest stay usable', async () => {
    const user = await signedUpUser();
    const reencoded = await sharp(fixturePhoto('obama3.jpg').bytes).jpeg({ quality: 60 }).toBuffer();
    const names = ['obama.jpg', 'obama2.jpg', 'obama-rotated.jpg', 'obama2.heic', 'obama3.jpg'];
    const keys = await uploadPhotos(gatewayUrl, user.idToken, [
      ...names.map(fixturePhoto),
      { name: 'obama3-q60.jpg', bytes: reencoded, contentType: 'image/jpeg' },
      fixturePhoto('obama-720p.jpg'),
    ]);
    const res = await check(user, keys);
    expect(res.status).toBe(200);
    const { checks } = (await res.json()) as { checks: CheckView[] };

    // Three pictures uploaded two or three times: one copy of each kept, the others pointing at it. obama-720p.jpg
    // is obama.jpg letterboxed into 16:9, seen by its face (docs/decisions/024-near-duplicates.md).
    for (const group of [
      [0, 2, 6],
      [1, 3],
      [4, 5],
    ]) {
      const copies = group.map((i) => checks[i]!);
      const kept = copies.filter((c) => c.duplicateOf === undefined);
      expect(kept).toHaveLength(1);
      expect(kept[0]!.verdict).toBe('good');
      for (const copy of copies.filter((c) => c !== kept[0])) {
        expect(copy.duplicateOf).toBe(kept[0]!.key);
        expect(copy).toMatchObject({ verdict: 'rejected', score: 0 });
        expect(copy.reasons[0]).toEqual({
          code: 'duplicate',
          message: `This looks like the same picture as photo ${keys.indexOf(kept[0]!.key) + 1}, so we'll only use it once. Please use a different photo.`,
        });
      }
    }
    expect(checks.filter((c) => c.verdict !== 'rejected')).toHaveLength(3);

    // The hash is stored with the check: a re-check gives the same answer without analysing anything again.
    const stored = await documentClient().send(
      new GetCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: userPk(user.sub), SK: photoCheckSk(keys[0]!) },
      }),
    );
    expect((stored.Item?.facts as { imageHash?: string }).imageHash).toMatch(/^[0-9a-f]{16}$/);
    expect((stored.Item?.facts as { faceCrop?: string }).faceCrop).toMatch(/^[A-Za-z0-9+/]{1366}==$/);
    expect(await quotaUsed(user.sub)).toBe(7);
    const again = await check(user, keys);
    expect(((await again.json()) as { checks: CheckView[] }).checks).toEqual(checks);
    expect(await quotaUsed(user.sub)).toBe(7);

    // A check stored before the hash was kept is analysed again once, and gets its hash.
    await documentClient().send(
      new UpdateCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: userPk(user.sub), SK: photoCheckSk(keys[2]!) },
        UpdateExpression: 'REMOVE facts.imageHash',
      }),
    );
    const migrated = (await (await check(user, keys)).json()) as { checks: CheckView[] };
    expect(migrated.checks).toEqual(checks);
    expect(await quotaUsed(user.sub)).toBe(8);
  });
});
