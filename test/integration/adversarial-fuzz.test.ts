import fc from 'fast-check';
import { fuzzSettings } from '../adversarial/fuzz-settings';
import { keyOf, type FuzzSpec, type RouteKey } from '../adversarial/fuzz-spec';
import { describe, expect, inject, it } from 'vitest';
import { getUser } from '../../functions/adapters/ledger';
import { routes } from '../../functions/http/routes';
import {
  analyticsBody,
  body,
  checkoutBody,
  cursorValue,
  editBody,
  favoriteBody,
  filterValue,
  generationsBody,
  pathId,
  queryString,
  uploadsBody,
} from '../adversarial/arbitraries';
import { draftFuzzSpecs } from '../adversarial/draft-specs';
import { teamFuzzSpecs } from '../adversarial/team-specs';
import { checkLedgersAfterEachTest } from '../adversarial/ledgers';
import { authorization, fixed, requestOf, stripeEvents, webhookRequest } from '../adversarial/route-requests';
import { expectApiContract, send, type RawRequest } from '../adversarial/requests';
import { seedGeneration, seedHeadshotItems, seedVersionItems } from '../adversarial/seed';
import { type TestUser } from '../helpers/cognito';
import { signedUpUser } from '../helpers/gallery';
import { userItems } from '../helpers/table';
import { api, fixturePhoto, pollGeneration, uploadPhotos } from '../helpers/generation';

/*
 * Generated requests for EVERY route of the route table (functions/http/routes.ts), against the shared local stack
 * (its gateway, JWT authorizer and handlers; DynamoDB Local, s3rver, cognito-local, the local Checkout provider):
 * odd path ids, queries, bodies (JSON, not JSON, bytes, none — GET and DELETE included, as raw HTTP allows), content
 * types and Authorization headers, mixed with near-valid inputs that reach the deeper code. Whatever is sent, the
 * answer is never a 5xx, a 4xx is always `{ error: { code, message } }`, and credits = Σ ledger afterwards.
 *
 * Each route has its own property with a fresh user, run as many times as test/adversarial/fuzz-settings.ts says (40
 * from a fixed seed by default, 200 with FUZZ=full; more where a spec asks); a route without a spec here fails the
 * suite (see 'every route of the route table has a fuzz spec') instead of being skipped.
 */

const { gatewayUrl } = inject('localStack');
const FUZZ = fuzzSettings();
const RUNS = FUZZ.numRuns;
const touch = checkLedgersAfterEachTest();

async function newUser(): Promise<TestUser> {
  const user = await signedUpUser();
  touch(user.sub);
  return user;
}

/** An unpaid Checkout Session of `user`, created through the API (the local Checkout provider). */
async function checkoutSession(user: TestUser): Promise<string> {
  const res = await api(gatewayUrl, user.idToken, 'POST', '/api/checkout/sessions', { packId: 'starter' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** The ids of every generation item of `sub`. */
const generationsOf = async (sub: string) =>
  (await userItems(sub, 'GENERATION#')).map((item) => String(item.id));

async function creditsOf(user: TestUser): Promise<number | undefined> {
  return (await getUser(user.sub))?.credits;
}

/**
 * A route that starts a one-slot generation from a headshot (`regenerate`, `edits`), asked for the caller's seeded
 * headshots (no generation behind them: 404) and another user's: it never spends a credit.
 */
function oneSlotStartSpec(action: 'regenerate' | 'edits', nearValid?: fc.Arbitrary<unknown>): FuzzSpec {
  return {
    reaches: ['404 NOT_FOUND', ...(nearValid ? ['400 VALIDATION_ERROR'] : []), '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [own, foreign] = await Promise.all([
        seedHeadshotItems(user.sub, 2),
        seedHeadshotItems(other.sub, 1),
      ]);
      return requestOf(
        'POST',
        pathId([...own, ...foreign]).map((i) => `/api/headshots/${i}/${action}`),
        { auth: authorization(user), ...(nearValid ? { body: body(nearValid) } : {}) },
      );
    },
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  };
}

const specs: Record<RouteKey, FuzzSpec> = {
  'GET /api/health': {
    reaches: ['200'],
    request: async () => requestOf('GET', fixed('/api/health'), {}),
  },
  'GET /api/packs': {
    reaches: ['200'],
    request: async () => requestOf('GET', fixed('/api/packs'), {}),
  },
  'GET /api/me': {
    reaches: ['200', '401 UNAUTHORIZED'],
    request: async ({ user }) => requestOf('GET', fixed('/api/me'), { auth: authorization(user) }),
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  },
  'GET /api/purchases': {
    reaches: ['200', '401 UNAUTHORIZED'],
    request: async ({ user }) => requestOf('GET', fixed('/api/purchases'), { auth: authorization(user) }),
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  },
  'PATCH /api/me': {
    reaches: ['200', '400 VALIDATION_ERROR', '401 UNAUTHORIZED'],
    request: async ({ user }) =>
      requestOf('PATCH', fixed('/api/me'), {
        auth: authorization(user),
        body: body(fc.record({ emailWhenReady: fc.boolean() })),
      }),
    // A preference only: the balance never moves.
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  },
  // Deleting the caller's own account: the first authorised request deletes it, the rest find it deleted (204).
  'DELETE /api/me': {
    reaches: ['204', '401 UNAUTHORIZED'],
    request: async ({ user }) => {
      await seedHeadshotItems(user.sub, 2);
      return requestOf('DELETE', fixed('/api/me'), { auth: authorization(user) });
    },
    // Only the caller's account went (its tombstone has 0 credits); the other user keeps everything.
    after: async ({ user, other }) => {
      expect(await creditsOf(user)).toBe(0);
      expect(await creditsOf(other)).toBe(6);
    },
  },
  'POST /api/checkout/sessions': {
    reaches: ['200', '400 VALIDATION_ERROR', '401 UNAUTHORIZED'],
    request: async ({ user }) =>
      requestOf('POST', fixed('/api/checkout/sessions'), {
        auth: authorization(user),
        body: body(checkoutBody),
      }),
    // Creating sessions never credits anything.
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  },
  'GET /api/checkout/sessions/{id}': {
    reaches: ['200', '404 NOT_FOUND', '400 VALIDATION_ERROR', '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [own, foreign] = await Promise.all([checkoutSession(user), checkoutSession(other)]);
      const id = pathId([own, foreign, `${own}x`, own.toUpperCase()]);
      return requestOf(
        'GET',
        id.map((i) => `/api/checkout/sessions/${i}`),
        { auth: authorization(user) },
      );
    },
    after: async ({ user, other }) => {
      expect(await creditsOf(user)).toBe(6);
      expect(await creditsOf(other)).toBe(6);
    },
  },
  'POST /api/webhooks/stripe': {
    reaches: ['200', '400 INVALID_SIGNATURE'],
    request: async ({ user }) => webhookRequest(stripeEvents(await checkoutSession(user))),
    // The only session it could name is unpaid: whatever the events claimed, nothing was credited.
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  },
  'POST /api/uploads': {
    reaches: ['200', '400 VALIDATION_ERROR', '401 UNAUTHORIZED'],
    request: async ({ user }) =>
      requestOf('POST', fixed('/api/uploads'), { auth: authorization(user), body: body(uploadsBody) }),
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  },
  'POST /api/generations': {
    // A body right in every field is rare: at the default seed, 2 of 150 generated requests were (202, then 402).
    minRuns: 150,
    reaches: [
      '202',
      '402 INSUFFICIENT_CREDITS',
      '400 UPLOAD_NOT_FOUND',
      '400 INVALID_REFERENCE',
      '400 VALIDATION_ERROR',
      '401 UNAUTHORIZED',
    ],
    request: async ({ user, other }) => {
      // One real upload of the user's: a body that gets everything right spends 6 credits (once: then 402).
      const [real] = await uploadPhotos(gatewayUrl, user.idToken, [fixturePhoto('obama-720p.jpg')]);
      const batch = real!.split('/')[2]!;
      const missing = [`uploads/${user.sub}/${batch}/1`, `uploads/${user.sub}/${batch}/9`];
      const foreign = [
        `uploads/${user.sub}/${batch}/normalized/0.jpg`,
        `uploads/${other.sub}/${batch}/0`,
        `uploads/${user.sub}/../${other.sub}/${batch}/0`,
        `uploads/${user.sub}/${batch.toLowerCase()}/0`,
        `/uploads/${user.sub}/${batch}/0`,
      ];
      return requestOf('POST', fixed('/api/generations'), {
        auth: authorization(user),
        body: body(generationsBody(real!, missing, foreign)),
      });
    },
    after: async ({ user, other }) => {
      // A body that got everything right spent the 6 credits once (every later one was 402): let it finish.
      const started = await generationsOf(user.sub);
      expect(started.length).toBeLessThanOrEqual(1);
      for (const id of started) {
        const { final } = await pollGeneration(gatewayUrl, user.idToken, id, 120_000);
        expect(final.status).toBe('succeeded');
      }
      expect(await creditsOf(user)).toBe(started.length ? 0 : 6);
      expect(await creditsOf(other)).toBe(6);
    },
  },
  'GET /api/generations/{id}': {
    reaches: ['200', '404 NOT_FOUND', '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [own, foreign] = await Promise.all([
        seedGeneration(user.sub, [0]),
        seedGeneration(other.sub, [0]),
      ]);
      const id = pathId([own.generation.id, foreign.generation.id, own.generation.id.toLowerCase()]);
      return requestOf(
        'GET',
        id.map((i) => `/api/generations/${i}`),
        { auth: authorization(user) },
      );
    },
  },
  'GET /api/headshots': {
    reaches: ['200', '400 INVALID_CURSOR', '400 VALIDATION_ERROR', '401 UNAUTHORIZED'],
    request: async ({ user }) => {
      await seedHeadshotItems(user.sub, 35);
      const first = await api(gatewayUrl, user.idToken, 'GET', '/api/headshots');
      const { nextCursor } = (await first.json()) as { nextCursor: string };
      expect(nextCursor).toEqual(expect.any(String));
      const pk = `USER#${user.sub}`;
      return requestOf('GET', fixed('/api/headshots'), {
        auth: authorization(user),
        query: queryString({ filter: filterValue, cursor: cursorValue(pk, [nextCursor]) }),
      });
    },
  },
  'PATCH /api/headshots/{id}': {
    reaches: ['200', '404 NOT_FOUND', '400 VALIDATION_ERROR', '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [own, foreign] = await Promise.all([
        seedHeadshotItems(user.sub, 3),
        seedHeadshotItems(other.sub, 1),
      ]);
      const id = pathId([...own, ...foreign]);
      return requestOf(
        'PATCH',
        id.map((i) => `/api/headshots/${i}`),
        { auth: authorization(user), body: body(favoriteBody) },
      );
    },
  },
  'GET /api/headshots/{id}/download': {
    reaches: ['200', '404 NOT_FOUND', '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [own, foreign] = await Promise.all([
        seedHeadshotItems(user.sub, 2),
        seedHeadshotItems(other.sub, 1),
      ]);
      return requestOf(
        'GET',
        pathId([...own, ...foreign]).map((i) => `/api/headshots/${i}/download`),
        { auth: authorization(user) },
      );
    },
  },
  // A headshot's versions (issue 36): the caller's own listed, anyone else's or a malformed id 404.
  'GET /api/headshots/{id}/versions': {
    reaches: ['200', '404 NOT_FOUND', '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [own, foreign] = await Promise.all([
        seedHeadshotItems(user.sub, 2),
        seedHeadshotItems(other.sub, 1),
      ]);
      await seedVersionItems(user.sub, own[0]!, 2);
      return requestOf(
        'GET',
        pathId([...own, ...foreign]).map((i) => `/api/headshots/${i}/versions`),
        { auth: authorization(user) },
      );
    },
  },
  // One version: the caller's own deleted (204), another headshot's, another user's or a malformed id 404.
  'DELETE /api/headshots/{id}/versions/{versionId}': {
    reaches: ['204', '404 NOT_FOUND', '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [[own], [foreign]] = await Promise.all([
        seedHeadshotItems(user.sub, 1),
        seedHeadshotItems(other.sub, 1),
      ]);
      const [mine, theirs] = await Promise.all([
        seedVersionItems(user.sub, own!, 6),
        seedVersionItems(other.sub, foreign!, 1),
      ]);
      return requestOf(
        'DELETE',
        fc
          .oneof(
            fc.tuple(pathId([own!, foreign!]), pathId([...mine, ...theirs])),
            // Half the requests name one of the caller's own versions, so deletions (204) are reached.
            fc.tuple(fc.constant(own!), fc.constantFrom(...mine)),
          )
          .map(([id, versionId]) => `/api/headshots/${id}/versions/${versionId}`),
        { auth: authorization(user) },
      );
    },
  },
  'DELETE /api/headshots/{id}': {
    reaches: ['204', '404 NOT_FOUND', '401 UNAUTHORIZED'],
    request: async ({ user, other }) => {
      const [own, foreign] = await Promise.all([
        seedHeadshotItems(user.sub, 3),
        seedHeadshotItems(other.sub, 1),
      ]);
      return requestOf(
        'DELETE',
        pathId([...own, ...foreign]).map((i) => `/api/headshots/${i}`),
        { auth: authorization(user) },
      );
    },
  },
  // Seeded headshots have no generation behind them (→ 404) or photos that are gone: nothing is ever spent.
  'POST /api/headshots/{id}/regenerate': oneSlotStartSpec('regenerate'),
  // The same for an edit, with near-valid edit bodies.
  'POST /api/headshots/{id}/edits': oneSlotStartSpec('edits', editBody),
  'DELETE /api/me/data': {
    reaches: ['200', '401 UNAUTHORIZED'],
    request: async ({ user }) => {
      await seedHeadshotItems(user.sub, 2);
      return requestOf('DELETE', fixed('/api/me/data'), { auth: authorization(user) });
    },
    // The account, its balance and its ledger stay (accounting).
    after: async ({ user }) => expect(await creditsOf(user)).toBe(6),
  },
  // One real photo of the user's (analysed once, then answered from the check cache) among missing, foreign and
  // malformed keys: a key that is not the caller's answers 404 exactly like one that was never uploaded.
  'POST /api/photo-checks': {
    reaches: ['200', '400 VALIDATION_ERROR', '401 UNAUTHORIZED', '404 NOT_FOUND'],
    request: async ({ user, other }) => {
      const [real] = await uploadPhotos(gatewayUrl, user.idToken, [fixturePhoto('obama-720p.jpg')]);
      const batch = real!.split('/')[2]!;
      const elsewhere = [
        `uploads/${user.sub}/${batch}/7`,
        `uploads/${other.sub}/${batch}/0`,
        `uploads/${user.sub}/../${other.sub}/${batch}/0`,
        `results/${user.sub}/${batch}/0.jpg`,
      ];
      const key = fc.oneof(
        { weight: 3, arbitrary: fc.constant(real!) },
        { weight: 2, arbitrary: fc.constantFrom(...elsewhere) },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      );
      const nearValid = fc.record({ keys: fc.array(key, { minLength: 1, maxLength: 3 }) });
      return requestOf('POST', fixed('/api/photo-checks'), {
        auth: authorization(user),
        body: body(nearValid),
      });
    },
    after: async ({ user, other }) => {
      expect(await creditsOf(user)).toBe(6);
      expect(await creditsOf(other)).toBe(6);
    },
  },
  // Public: the token is optional; past 60 requests a minute from this address the answer is 429.
  'POST /api/analytics/events': {
    reaches: ['202', '400 VALIDATION_ERROR'],
    request: async ({ user }) =>
      requestOf('POST', fixed('/api/analytics/events'), {
        auth: authorization(user),
        body: body(analyticsBody),
      }),
  },
  ...draftFuzzSpecs(gatewayUrl),
  ...teamFuzzSpecs(gatewayUrl),
};

describe('fuzzing the route table: never a 5xx, always the JSON error shape', () => {
  it('every route of the route table has a fuzz spec (none is skipped silently)', () => {
    expect(Object.keys(specs).sort()).toEqual(routes.map(keyOf).sort());
  });

  for (const route of routes) {
    const key = keyOf(route);
    it(
      `${key} (${route.auth}): ${Math.max(RUNS, specs[key]?.minRuns ?? 0)} generated requests`,
      { timeout: 240_000 },
      async () => {
        const spec = specs[key] as FuzzSpec | undefined;
        if (!spec) throw new Error(`no fuzz spec for ${key}: add one to specs`);
        const [user, other] = await Promise.all([newUser(), newUser()]);
        const ctx = { user, other };
        const requests = await spec.request(ctx);
        const seen = new Map<string, number>();
        await fc.assert(
          fc.asyncProperty(requests, async (req) => {
            const res = await send(gatewayUrl, req);
            expectApiContract(req, res);
            const code =
              res.status >= 400 ? (JSON.parse(res.text) as { error: { code: string } }).error.code : '';
            seen.set(`${res.status} ${code}`.trim(), (seen.get(`${res.status} ${code}`.trim()) ?? 0) + 1);
          }),
          { ...FUZZ, numRuns: Math.max(FUZZ.numRuns, spec.minRuns ?? 0) },
        );
        console.info(`${key}: ${[...seen].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
        expect([...seen.keys()]).toEqual(expect.arrayContaining(spec.reaches));
        await spec.after?.(ctx);
      },
    );
  }

  it(`unknown paths and methods under /api: ${RUNS} generated requests → 404/405 JSON`, async () => {
    const method = fc.constantFrom(
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
      'HEAD',
      'TRACE',
      'PROPFIND',
    );
    const segment = fc.oneof(
      fc.constantFrom('me', 'headshots', 'generations', 'webhooks', '..', '%2e'),
      fc.string(),
    );
    const requests = fc
      .tuple(method, fc.array(segment, { minLength: 1, maxLength: 4 }), queryString())
      .map(([m, segments, query]): RawRequest => ({
        method: m,
        target: `/api/${segments.join('/')}${query}`,
      }));
    await fc.assert(
      fc.asyncProperty(requests, async (req) => {
        const res = await send(gatewayUrl, req);
        // HEAD answers carry no body by definition: only the status is checked.
        if (req.method === 'HEAD') expect(res.status, `${req.method} ${req.target}`).toBeLessThan(500);
        else expectApiContract(req, res);
      }),
      FUZZ,
    );
  });
});
