import { describe, expect, it } from 'vitest';
import { AccountDeletedError, NoEmailInTokenError } from '../../../functions/domain/errors';
import { getMe, type GetMePorts } from '../../../functions/use-cases/get-me';
import { failing } from './fakes/failures';
import { FakeLedger } from './fakes/ledger';

const sub = 'user-1';
const CREATED = '2026-01-01T00:00:00.000Z';

function setup(overrides: Partial<GetMePorts> = {}) {
  const ledger = new FakeLedger();
  const generations = new Map<string, Awaited<ReturnType<GetMePorts['getGeneration']>>>();
  const ports: GetMePorts = {
    getUser: ledger.getUser,
    ensureUser: ledger.ensureUser,
    getGeneration: async (_sub, id) => generations.get(id),
    ...overrides,
  };
  return { ledger, generations, ports };
}

describe('getMe: the caller’s account', () => {
  it('creates a new user with the 6 free credits on the first call, once', async () => {
    const { ledger, ports } = setup();
    const me = await getMe({ sub, email: 'ada.l@example.com' }, ports);
    expect(me).toMatchObject({
      id: sub,
      email: 'ada.l@example.com',
      displayName: 'ada.l',
      credits: 6,
      creditsOwed: 0,
      signupBonus: 'granted',
      emailWhenReady: true,
      activeGeneration: null,
    });
    expect(typeof me.highResolution).toBe('boolean');
    expect((await getMe({ sub, email: 'ada.l@example.com' }, ports)).credits).toBe(6);
    expect(ledger.entriesOf(sub, 'signup_bonus')).toHaveLength(1);
  });

  it('reads an existing user with an access token (no e-mail), with what the account owes', async () => {
    const { ledger, ports } = setup();
    ledger.seedUser(sub, 3, { creditsOwed: 2, signupBonus: 'already-claimed' });
    expect(await getMe({ sub, email: undefined }, ports)).toMatchObject({
      credits: 3,
      creditsOwed: 2,
      signupBonus: 'already-claimed',
    });
  });

  it('throws NoEmailInTokenError for a new user whose token carries no e-mail, creating nothing', async () => {
    const { ledger, ports } = setup();
    await expect(getMe({ sub, email: undefined }, ports)).rejects.toBeInstanceOf(NoEmailInTokenError);
    expect(ledger.users.size).toBe(0);
  });

  it('throws AccountDeletedError for a still-valid token of a deleted account', async () => {
    const { ledger, ports } = setup();
    ledger.seedUser(sub, 0, { deletedAt: CREATED });
    await expect(getMe({ sub, email: 'a@example.com' }, ports)).rejects.toBeInstanceOf(AccountDeletedError);
  });

  it('shows the generation still in flight, running or queued, and none once it ended', async () => {
    const { ledger, generations, ports } = setup();
    ledger.seedUser(sub, 0, { lastGenerationId: 'g1' });
    const running = { id: 'g1', status: 'running', progress: 40, createdAt: CREATED } as const;
    generations.set('g1', running);
    expect((await getMe({ sub, email: undefined }, ports)).activeGeneration).toEqual({
      id: 'g1',
      status: 'running',
      progress: 40,
      headshotsExpected: 6,
      regeneratedFrom: null,
      edit: null,
      createdAt: CREATED,
    });
    generations.set('g1', { ...running, status: 'queued', slotCount: 1, regeneratedFrom: 'h0' });
    expect((await getMe({ sub, email: undefined }, ports)).activeGeneration).toMatchObject({
      status: 'queued',
      headshotsExpected: 1,
      regeneratedFrom: 'h0',
    });
    const edit = { headshotId: 'h0', request: { kind: 'outfit', outfit: 'blazer' } } as const;
    generations.set('g1', { ...running, slotCount: 1, edit });
    expect((await getMe({ sub, email: undefined }, ports)).activeGeneration).toMatchObject({
      headshotsExpected: 1,
      edit: { kind: 'outfit', outfit: 'blazer', headshotId: 'h0' },
    });
    generations.set('g1', { ...running, status: 'succeeded' });
    expect((await getMe({ sub, email: undefined }, ports)).activeGeneration).toBeNull();
  });

  it('lets a failing table through', async () => {
    const down = new Error('table down');
    const { ports } = setup({ getUser: failing(down) });
    await expect(getMe({ sub, email: 'a@example.com' }, ports)).rejects.toBe(down);
  });
});
