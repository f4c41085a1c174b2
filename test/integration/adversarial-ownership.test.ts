import { describe, expect, inject, it } from 'vitest';
import { encodeCursor } from '../../functions/domain/gallery';
import { routes, type RouteDefinition } from '../../functions/http/routes';
import { checkLedgersAfterEachTest } from '../adversarial/ledgers';
import { expectApiContract, send, type RawRequest, type RawResponse } from '../adversarial/requests';
import { seedGeneration, seedVersionItems, snapshotOwned } from '../adversarial/seed';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';

/*
 * Every route of the route table called by an intruder with the owner's ids — generation, headshots, Checkout
 * Session, upload key, gallery cursor — on the shared local stack. Each answers as if the id did not exist (404, or
 * the route's documented 400 for ids that travel in a body or a cursor), and afterwards the owner's partition and
 * S3 objects are byte-for-byte what they were. Routes that take no id say so explicitly below.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const touch = checkLedgersAfterEachTest();

type RouteKey = `${RouteDefinition['method']} ${RouteDefinition['path']}`;

/** What the owner has that an intruder might name. */
interface OwnerIds {
  generationId: string;
  headshotId: string;
  /** A version of that headshot (issue 36). */
  versionId: string;
  sessionId: string;
  uploadKey: string;
  cursor: string;
}

/** An intruder's attempt on one route with the owner's ids, and the answer it must get. */
type Attempt =
  { request: (ids: OwnerIds) => RawRequest; status: number; code: string } | { notApplicable: string };

const json = (token: string, method: string, target: string, body?: unknown): RawRequest => ({
  method,
  target,
  headers: {
    authorization: `Bearer ${token}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});

function attempts(intruder: TestUser): Record<RouteKey, Attempt> {
  const t = intruder.idToken;
  return {
    'GET /api/health': { notApplicable: 'public, takes no id' },
    'GET /api/packs': { notApplicable: 'public, takes no id' },
    'GET /api/me': { notApplicable: "takes no id: answers the caller's own record (me.test.ts)" },
    'GET /api/purchases': {
      notApplicable:
        "takes no id: lists the caller's own purchases (purchase-history.test.ts: others see none)",
    },
    'PATCH /api/me': { notApplicable: "takes no id: changes the caller's own preference" },
    'POST /api/checkout/sessions': {
      notApplicable: 'takes a pack id only; the session it creates belongs to the caller',
    },
    'GET /api/checkout/sessions/{id}': {
      request: (ids) => json(t, 'GET', `/api/checkout/sessions/${ids.sessionId}`),
      status: 404,
      code: 'NOT_FOUND',
    },
    'POST /api/webhooks/stripe': {
      notApplicable: 'no caller: only a Stripe-signed event is accepted (adversarial-webhook.test.ts)',
    },
    'POST /api/uploads': { notApplicable: "takes no id: keys are minted under the caller's own prefix" },
    // An upload key travels in the body: refused as "not one of your uploads", nothing spent.
    'POST /api/generations': {
      request: (ids) =>
        json(t, 'POST', '/api/generations', {
          style: 'professional',
          background: 'office',
          referenceKeys: [ids.uploadKey],
        }),
      status: 400,
      code: 'INVALID_REFERENCE',
    },
    'GET /api/generations/{id}': {
      request: (ids) => json(t, 'GET', `/api/generations/${ids.generationId}`),
      status: 404,
      code: 'NOT_FOUND',
    },
    // A cursor names a position in a partition: the owner's is refused as invalid, never read.
    'GET /api/headshots': {
      request: (ids) => json(t, 'GET', `/api/headshots?cursor=${ids.cursor}`),
      status: 400,
      code: 'INVALID_CURSOR',
    },
    'PATCH /api/headshots/{id}': {
      request: (ids) => json(t, 'PATCH', `/api/headshots/${ids.headshotId}`, { isFavorite: true }),
      status: 404,
      code: 'NOT_FOUND',
    },
    'GET /api/headshots/{id}/download': {
      request: (ids) => json(t, 'GET', `/api/headshots/${ids.headshotId}/download`),
      status: 404,
      code: 'NOT_FOUND',
    },
    // Regenerating spends a credit of the caller's: never one of the owner's, never from the owner's photos.
    'POST /api/headshots/{id}/regenerate': {
      request: (ids) => json(t, 'POST', `/api/headshots/${ids.headshotId}/regenerate`),
      status: 404,
      code: 'NOT_FOUND',
    },
    // An edit too: never of the owner's headshot, never a credit of anyone's.
    'POST /api/headshots/{id}/edits': {
      request: (ids) =>
        json(t, 'POST', `/api/headshots/${ids.headshotId}/edits`, { edit: { kind: 'upscale' } }),
      status: 404,
      code: 'NOT_FOUND',
    },
    // A headshot's versions: never listed, downloaded or deleted for anyone but its owner.
    'GET /api/headshots/{id}/versions': {
      request: (ids) => json(t, 'GET', `/api/headshots/${ids.headshotId}/versions`),
      status: 404,
      code: 'NOT_FOUND',
    },
    'DELETE /api/headshots/{id}/versions/{versionId}': {
      request: (ids) => json(t, 'DELETE', `/api/headshots/${ids.headshotId}/versions/${ids.versionId}`),
      status: 404,
      code: 'NOT_FOUND',
    },
    'DELETE /api/headshots/{id}': {
      request: (ids) => json(t, 'DELETE', `/api/headshots/${ids.headshotId}`),
      status: 404,
      code: 'NOT_FOUND',
    },
    'DELETE /api/me/data': { notApplicable: "takes no id: deletes the caller's own data (checked below)" },
    'DELETE /api/me': {
      notApplicable: "takes no id: deletes the caller's own account (delete-account.test.ts)",
    },
    // An upload key travels in the body: the owner's photo is answered as if it did not exist, never analysed.
    'POST /api/photo-checks': {
      request: (ids) => json(t, 'POST', '/api/photo-checks', { keys: [ids.uploadKey] }),
      status: 404,
      code: 'NOT_FOUND',
    },
    'GET /api/draft': { notApplicable: "takes no id: answers the caller's own draft" },
    // An upload key travels in the body: refused as "not one of your uploads", nothing kept.
    'PUT /api/draft': {
      request: (ids) =>
        json(t, 'PUT', '/api/draft', {
          step: 2,
          style: null,
          background: null,
          photos: [{ key: ids.uploadKey, name: 'photo.jpg', preview: null }],
        }),
      status: 400,
      code: 'INVALID_REFERENCE',
    },
    'DELETE /api/draft': { notApplicable: "takes no id: forgets the caller's own draft" },
    'POST /api/analytics/events': {
      notApplicable: "takes no id: events are attributed to the caller's own token, never to a named user",
    },
    ...teamRoutesElsewhere,
  };
}

/**
 * The team routes take a team's id, not a user's: who may call them is teams-access.test.ts's subject (a
 * non-member, another team's member and a plain member on every team route: 404/403, nothing seen or changed).
 */
const TEAMS =
  'a team id, not a user’s: teams-access.test.ts calls it as a non-member, another team’s member and a plain member';
const teamRoutesElsewhere: Record<string, Attempt> = Object.fromEntries(
  routes
    .filter((r) => r.path.startsWith('/api/teams') || r.path.startsWith('/api/invites/'))
    .map((r) => [`${r.method} ${r.path}`, { notApplicable: TEAMS }]),
);

async function signedUp(): Promise<TestUser> {
  const user = await createTestUser(pool);
  touch(user.sub);
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return user;
}

describe("every route × another user's ids", () => {
  it(
    'answers as if the id did not exist, and changes nothing of the owner’s',
    { timeout: 120_000 },
    async () => {
      const [owner, intruder] = await Promise.all([signedUp(), signedUp()]);
      const { generation, headshotIds } = await seedGeneration(owner.sub, [0, 1]);
      const [uploadKey] = await uploadPhotos(gatewayUrl, owner.idToken, [fixturePhoto('obama-720p.jpg')]);
      const session = await api(gatewayUrl, owner.idToken, 'POST', '/api/checkout/sessions', {
        packId: 'pro',
      });
      expect(session.status).toBe(200);
      const ids: OwnerIds = {
        generationId: generation.id,
        headshotId: headshotIds[0]!,
        versionId: (await seedVersionItems(owner.sub, headshotIds[0]!, 1))[0]!,
        sessionId: ((await session.json()) as { id: string }).id,
        uploadKey: uploadKey!,
        // The cursor the server would hand the owner for the page after their newest headshot.
        cursor: encodeCursor({ PK: `USER#${owner.sub}`, SK: `HEADSHOT#${headshotIds[1]}` }),
      };
      // The owner really can use each id (so a 404 below is about ownership, not a bad id).
      expect(
        (await api(gatewayUrl, owner.idToken, 'GET', `/api/generations/${ids.generationId}`)).status,
      ).toBe(200);
      expect(
        (await api(gatewayUrl, owner.idToken, 'GET', `/api/headshots/${ids.headshotId}/download`)).status,
      ).toBe(200);
      expect(
        (await api(gatewayUrl, owner.idToken, 'GET', `/api/checkout/sessions/${ids.sessionId}`)).status,
      ).toBe(200);
      const ownVersions = await api(
        gatewayUrl,
        owner.idToken,
        'GET',
        `/api/headshots/${ids.headshotId}/versions`,
      );
      expect(await ownVersions.json()).toMatchObject({ versions: [{ id: ids.versionId }] });
      expect(
        (
          await api(
            gatewayUrl,
            owner.idToken,
            'GET',
            `/api/headshots/${ids.headshotId}/download?version=${ids.versionId}`,
          )
        ).status,
      ).toBe(200);
      expect(
        (await api(gatewayUrl, owner.idToken, 'GET', `/api/headshots?cursor=${ids.cursor}`)).status,
      ).toBe(200);

      const before = await snapshotOwned(owner.sub);
      expect(before.objects.length).toBeGreaterThanOrEqual(5); // 1 upload + 2 × (image + thumbnail)

      const table = attempts(intruder);
      expect(Object.keys(table).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
      const answers: [RouteKey, RawResponse][] = [];
      for (const [key, attempt] of Object.entries(table) as [RouteKey, Attempt][]) {
        if ('notApplicable' in attempt) continue;
        const req = attempt.request(ids);
        const res = await send(gatewayUrl, req);
        expectApiContract(req, res);
        expect([key, res.status, (JSON.parse(res.text) as { error: { code: string } }).error.code]).toEqual([
          key,
          attempt.status,
          attempt.code,
        ]);
        answers.push([key, res]);
      }
      // 404s say nothing about the owner: the same text as for an id that never existed.
      const unknown = await send(
        gatewayUrl,
        json(intruder.idToken, 'GET', '/api/headshots/01ARZ3NDEKTSV4RRFFQ69G5FAV/download'),
      );
      const stolen = answers.find(([k]) => k === 'GET /api/headshots/{id}/download')![1];
      expect(stolen.text).toBe(unknown.text);

      // The intruder's own gallery and data deletion see and touch only the intruder's partition.
      const gallery = await api(gatewayUrl, intruder.idToken, 'GET', '/api/headshots');
      expect(await gallery.json()).toMatchObject({ items: [], stats: { total: 0, favorites: 0 } });
      const wiped = await api(gatewayUrl, intruder.idToken, 'DELETE', '/api/me/data');
      expect(await wiped.json()).toEqual({ deleted: { headshots: 0, generations: 0, objects: 0 } });

      expect(await snapshotOwned(owner.sub)).toEqual(before);
    },
  );
});
