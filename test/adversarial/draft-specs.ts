import fc from 'fast-check';
import { expect } from 'vitest';
import { BACKGROUNDS, STYLES } from '../../functions/domain/styles';
import { api } from '../helpers/generation';
import { body } from './arbitraries';
import type { FuzzSpec } from './fuzz-spec';
import { authorization, fixed, requestOf } from './route-requests';

/** The routes of the wizard's draft kept with the account (functions/http/routes.ts). */
type DraftRoute = 'GET /api/draft' | 'PUT /api/draft' | 'DELETE /api/draft';

const BATCH = '01JD2Q5X8M4V7N3K6P9R2T5W8Y';

/** A draft photo naming `key`, with no preview or a tiny one. */
const photoOf = (key: string) =>
  fc.record({
    key: fc.constant(key),
    name: fc.string({ maxLength: 40 }),
    preview: fc.constantFrom(null, 'data:image/jpeg;base64,/9j/4AAQ'),
  });

/**
 * Near-valid `PUT /api/draft` bodies: the caller's own upload keys (they need not exist: a save names keys, the read
 * leaves out the gone), keys that are not the caller's, and fields that break the contract.
 */
function draftBody(own: readonly string[], foreign: readonly string[]): fc.Arbitrary<unknown> {
  const photosOf = (keys: readonly string[]) =>
    fc
      .uniqueArray(fc.constantFrom(...keys), { maxLength: keys.length })
      .chain((picked) => fc.tuple(...picked.map(photoOf)));
  const choices = {
    step: fc.constantFrom(1, 2, 3),
    style: fc.constantFrom(...STYLES, null),
    background: fc.constantFrom(...BACKGROUNDS, null),
  };
  const valid = fc.record({ ...choices, photos: photosOf(own) });
  // Right in every field but one photo: a key that is not the caller's upload.
  const foreignKey = fc.record({
    ...choices,
    photos: fc
      .tuple(photosOf(own), fc.constantFrom(...foreign).chain(photoOf))
      .map(([mine, theirs]) => [...mine, theirs]),
  });
  const wrong = fc.record(
    {
      step: fc.oneof(fc.constantFrom(0, 4, '2', 2.5), fc.jsonValue()),
      style: fc.constantFrom(...STYLES, 'casual', ''),
      background: fc.constantFrom(...BACKGROUNDS, 'beach'),
      photos: fc.array(
        fc.oneof(
          fc.constantFrom(...own, ...foreign).chain(photoOf),
          fc.record({ key: fc.string(), name: fc.string(), preview: fc.string({ maxLength: 60 }) }),
        ),
        { maxLength: 12 },
      ),
    },
    { requiredKeys: ['photos'] },
  );
  return fc.oneof(valid, foreignKey, wrong);
}

/**
 * The fuzz specs of the draft's routes (test/integration/adversarial-fuzz.test.ts): whatever is sent, a draft is
 * only ever the caller's, and no key of another user is kept.
 */
export function draftFuzzSpecs(gatewayUrl: string): Record<DraftRoute, FuzzSpec> {
  const noDraftOf = async (token: string) => {
    const answer = await api(gatewayUrl, token, 'GET', '/api/draft');
    expect(await answer.json()).toEqual({ draft: null });
  };
  return {
    'GET /api/draft': {
      reaches: ['200', '401 UNAUTHORIZED'],
      request: async ({ user }) => {
        const draft = { step: 2, style: 'creative', background: null, photos: [] };
        expect((await api(gatewayUrl, user.idToken, 'PUT', '/api/draft', draft)).status).toBe(204);
        return requestOf('GET', fixed('/api/draft'), { auth: authorization(user) });
      },
      after: async ({ other }) => noDraftOf(other.idToken),
    },
    'PUT /api/draft': {
      reaches: ['204', '400 INVALID_REFERENCE', '400 VALIDATION_ERROR', '401 UNAUTHORIZED'],
      request: async ({ user, other }) => {
        const own = [0, 1, 2].map((n) => `uploads/${user.sub}/${BATCH}/${n}`);
        const foreign = [
          `uploads/${other.sub}/${BATCH}/0`,
          `uploads/${user.sub}/${BATCH}/normalized/0.jpg`,
          `uploads/${user.sub}/../${other.sub}/${BATCH}/0`,
          `results/${user.sub}/${BATCH}/0.jpg`,
        ];
        return requestOf('PUT', fixed('/api/draft'), {
          auth: authorization(user),
          body: body(draftBody(own, foreign)),
        });
      },
      // Nothing was written for the other user.
      after: async ({ other }) => noDraftOf(other.idToken),
    },
    'DELETE /api/draft': {
      reaches: ['204', '401 UNAUTHORIZED'],
      request: async ({ user }) => requestOf('DELETE', fixed('/api/draft'), { auth: authorization(user) }),
      after: async ({ user }) => noDraftOf(user.idToken),
    },
  };
}
