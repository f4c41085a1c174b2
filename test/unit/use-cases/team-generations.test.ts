import { describe, expect, it } from 'vitest';
import { quotaRules } from '../../../functions/adapters/quotas';
import { AccountDeletingError, WorkflowStartFailedError } from '../../../functions/domain/errors';
import { teamAccount } from '../../../functions/domain/ledger-account';
import { buildPrompt } from '../../../functions/domain/prompts';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import {
  LookLockedError,
  TeamAllowanceUsedError,
  TeamNoSeatsError,
  TeamNotFoundError,
} from '../../../functions/domain/team-errors';
import type { TeamLook } from '../../../functions/domain/team-look';
import { compensateGeneration, finalizeGeneration } from '../../../functions/use-cases/compensate-generation';
import { createGeneration, type CreateGenerationPorts } from '../../../functions/use-cases/create-generation';
import { editHeadshot, type EditHeadshotPorts } from '../../../functions/use-cases/edit-headshot';
import {
  regenerateHeadshot,
  type RegenerateHeadshotPorts,
} from '../../../functions/use-cases/regenerate-headshot';
import { memberRecord } from '../../helpers/team-store';
import { finishedHeadshotWorld } from './fakes/finished-headshot';
import { compensationPortsOf } from './fakes/generations';
import { generationStartWorld } from './fakes/generation-start';
import { teamRecord } from './fakes/team-payments';

/*
 * Team generations (issue 37 §2-§3, docs/teams.md "Money", "The brand look"): a member generates with the team's look,
 * the team's ledger pays 6 credits and the member's one generation is counted in the same transaction; never anyone's
 * own credits. Every refund of what a team generation did not deliver goes back to the team, and one that delivered
 * nothing gives the member their generation back. Edits and regenerations of a team headshot spend the member's team
 * edits, and only the look-keeping kinds.
 */

const TEAM = 'T1';
const team = teamAccount(TEAM);
const MEMBER = 'member';
const BATCH = '01KDWYDY00BBBBBBBBBBBBBBBB';
const key = (n: number, sub = MEMBER) => `uploads/${sub}/${BATCH}/${n}`;
/** Acme's locked look: professional, an office or its brand colour, a suit and tie. */
const LOOK: TeamLook = {
  styles: ['professional'],
  backgrounds: [
    { type: 'preset', background: 'office' },
    { type: 'colour', colour: '#1f6feb' },
  ],
  outfits: ['suit-and-tie'],
};

/** A team with 3 seats (24 credits, bought) and its look; `member` (0 own credits) and `owner` (6) in it. */
async function world(teamCredits = 24) {
  const w = generationStartWorld();
  w.teams.teams.set(TEAM, teamRecord(TEAM, 'owner', { look: LOOK }));
  if (teamCredits > 0) await w.ledger.grantCredits({ account: team, amount: teamCredits, ref: 'cs_seats' });
  for (const [sub, role] of [
    [MEMBER, 'member'],
    ['owner', 'owner'],
  ] as const) {
    w.teams.members.set(`${TEAM}/${sub}`, memberRecord(TEAM, sub, role));
    w.buckets.put('uploads', key(0, sub), 'photo 0');
  }
  w.ledger.seedUser(MEMBER, 0);
  w.ledger.seedUser('owner', 6);
  const ports: CreateGenerationPorts = { ...w.ports, highResolutionAvailable: () => true };
  const member = () => w.teams.members.get(`${TEAM}/${MEMBER}`)!;
  return { ...w, ports, member };
}

const teamBody = (sub = MEMBER, fields: Record<string, unknown> = {}) => ({
  style: 'professional' as const,
  background: 'office' as const,
  outfit: 'suit-and-tie' as const,
  referenceKeys: [key(0, sub)],
  resolution: 'standard' as const,
  teamId: TEAM,
  ...fields,
});

describe('a team generation', () => {
  it('spends 6 of the team’s credits and the member’s one generation, in one go, and none of their own', async () => {
    const { ports, ledger, generations, member } = await world();
    const started = await createGeneration({ sub: MEMBER, email: undefined }, teamBody(), ports);
    expect(started).toMatchObject({ creditsReserved: 6, credits: 0 });
    expect(ledger.balance(team)).toBe(18);
    expect(ledger.entriesOf(team, 'generation').map((e) => [e.delta, e.ref])).toEqual([[-6, started.id]]);
    expect(member().generationsUsed).toBe(1);
    expect(ledger.balance(MEMBER)).toBe(0);
    expect(ledger.entriesOf(MEMBER)).toEqual([]);
    expect(generations.stored(MEMBER, started.id)).toMatchObject({
      payer: { team: TEAM },
      creditsReserved: 6,
    });
    // The user item's guard moved too: the member's newest generation is this one.
    expect(ledger.users.get(MEMBER)?.lastGenerationId).toBe(started.id);
  });

  it('asks the provider line for room in the lane of the team that pays', async () => {
    const { ports } = await world();
    const asked: unknown[] = [];
    const recording = {
      ...ports,
      assertLineHasRoom: async (payer: unknown) => void asked.push(payer),
    };
    await createGeneration({ sub: MEMBER, email: undefined }, teamBody(), recording);
    expect(asked).toEqual([team]);
  });

  it('never touches the owner’s own credits when the owner generates for the team', async () => {
    const { ports, ledger } = await world();
    const started = await createGeneration({ sub: 'owner', email: undefined }, teamBody('owner'), ports);
    expect(started.credits).toBe(6);
    expect(ledger.balance('owner')).toBe(6);
    expect(ledger.balance(team)).toBe(18);
  });

  it('keeps the team’s backdrop colour on the generation, and its prompt asks for a plain backdrop of it', async () => {
    const { ports, generations } = await world();
    const body = teamBody(MEMBER, { background: 'studio', backgroundColour: '#1F6FEB'.toLowerCase() });
    const started = await createGeneration({ sub: MEMBER, email: undefined }, body, ports);
    expect(generations.stored(MEMBER, started.id)).toMatchObject({
      background: 'studio',
      backgroundColour: '#1f6feb',
    });
    const prompt = buildPrompt({ style: 'professional', background: 'studio', backgroundColour: '#1f6feb' });
    expect(prompt).toContain('solid colour backdrop of hex #1f6feb');
    expect(prompt).not.toContain('studio backdrop');
  });

  it('refuses a choice outside the team’s look (LOOK_LOCKED), spending nothing', async () => {
    const { ports, ledger, member } = await world();
    const starter = { sub: MEMBER, email: undefined };
    for (const [fields, field] of [
      [{ style: 'creative' }, 'style'],
      [{ background: 'outdoor' }, 'background'],
      [{ background: 'studio', backgroundColour: '#000000' }, 'background'],
      [{ outfit: 'blazer' }, 'outfit'],
      [{ outfit: undefined }, 'outfit'],
    ] as const) {
      await expect(createGeneration(starter, teamBody(MEMBER, fields), ports)).rejects.toEqual(
        new LookLockedError(field),
      );
    }
    expect(ledger.balance(team)).toBe(24);
    expect(member().generationsUsed).toBe(0);
  });

  it('allows one generation per member: a second is TEAM_ALLOWANCE_USED', async () => {
    const { ports, generations, ledger } = await world();
    const starter = { sub: MEMBER, email: undefined };
    const first = await createGeneration(starter, teamBody(), ports);
    generations.stored(MEMBER, first.id)!.status = 'succeeded';
    await expect(createGeneration(starter, teamBody(), ports)).rejects.toEqual(
      new TeamAllowanceUsedError('generation', 2),
    );
    expect(ledger.balance(team)).toBe(18);
  });

  it('holds the allowance in the spend itself: a start that read it before another used it is refused', async () => {
    const { ports, teams, ledger, member } = await world();
    // The check read the member before a concurrent start counted their generation (later reads see the table).
    let reads = 0;
    const stale = {
      ...ports,
      getMember: async (teamId: string, sub: string) =>
        ++reads % 2 === 1 ? memberRecord(TEAM, MEMBER, 'member') : teams.getMember(teamId, sub),
    };
    member().generationsUsed = 1;
    await expect(
      createGeneration({ sub: MEMBER, email: undefined }, teamBody(), stale),
    ).rejects.toBeInstanceOf(TeamAllowanceUsedError);
    // A member removed meanwhile: the spend's condition refuses, answered as for any non-member.
    member().generationsUsed = 0;
    teams.members.get(`${TEAM}/${MEMBER}`)!.membership = 'removed';
    await expect(
      createGeneration({ sub: MEMBER, email: undefined }, teamBody(), stale),
    ).rejects.toBeInstanceOf(TeamNotFoundError);
    expect(ledger.balance(team)).toBe(24);
  });

  it('refuses when the team has no seats left (TEAM_NO_SEATS), spending nothing', async () => {
    const { ports, member } = await world(5);
    await expect(createGeneration({ sub: MEMBER, email: undefined }, teamBody(), ports)).rejects.toEqual(
      new TeamNoSeatsError(5, 6),
    );
    expect(member().generationsUsed).toBe(0);
  });

  it('answers a non-member and a removed member as an unknown team (404)', async () => {
    const { ports, teams, ledger } = await world();
    ledger.seedUser('stranger', 6);
    await expect(
      createGeneration({ sub: 'stranger', email: undefined }, teamBody('stranger'), ports),
    ).rejects.toBeInstanceOf(TeamNotFoundError);
    teams.members.get(`${TEAM}/${MEMBER}`)!.membership = 'removed';
    await expect(
      createGeneration({ sub: MEMBER, email: undefined }, teamBody(), ports),
    ).rejects.toBeInstanceOf(TeamNotFoundError);
    expect(ledger.balance('stranger')).toBe(6);
    expect(ledger.balance(team)).toBe(24);
  });

  it('keeps the caller’s own limits: one generation in flight, no start while the account is being deleted', async () => {
    const { ports, ledger, member } = await world();
    ledger.seedUser(MEMBER, 6);
    const personal = await createGeneration(
      { sub: MEMBER, email: undefined },
      { ...teamBody(), teamId: undefined, style: 'creative' as const },
      ports,
    );
    expect(personal.credits).toBe(0);
    await expect(
      createGeneration({ sub: MEMBER, email: undefined }, teamBody(), ports),
    ).rejects.toBeInstanceOf(QuotaExceededError);
    ledger.users.get('owner')!.deletingAt = '2026-01-01T00:00:00.000Z';
    await expect(
      createGeneration({ sub: 'owner', email: undefined }, teamBody('owner'), ports),
    ).rejects.toBeInstanceOf(AccountDeletingError);
    expect(ledger.balance(team)).toBe(24);
    expect(member().generationsUsed).toBe(0);
  });
});

describe('refunds of a team generation go back to the team', () => {
  async function started() {
    const w = await world();
    const { id } = await createGeneration({ sub: MEMBER, email: undefined }, teamBody(), w.ports);
    const ports = compensationPortsOf(w.generations, w.ledger, w.teams.members);
    return { ...w, id, compensation: ports };
  }

  it('nothing delivered (a failure, the sweeper, a timed-out execution): all 6 back, and the member’s generation', async () => {
    const { id, compensation, ledger, member, generations } = await started();
    const error = { code: 'TIMED_OUT', message: 'Timed out' } as const;
    await compensateGeneration(MEMBER, id, error, compensation);
    // Repeated by another path: nothing twice.
    await compensateGeneration(MEMBER, id, error, compensation);
    expect(ledger.balance(team)).toBe(24);
    expect(ledger.entriesOf(team, 'refund')).toHaveLength(6);
    expect(ledger.ledgerSum(team)).toBe(24);
    expect(member().generationsUsed).toBe(0);
    expect(ledger.balance(MEMBER)).toBe(0);
    expect(generations.stored(MEMBER, id)).toMatchObject({ status: 'failed', creditsRefunded: 6 });
  });

  it('some delivered (Finalize): the rest back to the team, and the member keeps the generation they had', async () => {
    const { id, compensation, ledger, member, generations } = await started();
    generations.stored(MEMBER, id)!.slots = { '0': 'h0', '1': 'h1', '2': 'h2' };
    await finalizeGeneration(MEMBER, id, compensation);
    expect(ledger.balance(team)).toBe(21);
    expect(member().generationsUsed).toBe(1);
    expect(ledger.balance(MEMBER)).toBe(0);
  });

  it('a start Step Functions refuses is refunded to the team at once, the generation given back', async () => {
    const w = await world();
    w.executions.refuseWith = new Error('StartExecution throttled');
    await expect(
      createGeneration({ sub: MEMBER, email: undefined }, teamBody(), w.ports),
    ).rejects.toBeInstanceOf(WorkflowStartFailedError);
    expect(w.ledger.balance(team)).toBe(24);
    expect(w.member().generationsUsed).toBe(0);
  });

  it('refunds the credits even when the counter cannot be given back (already 0)', async () => {
    const { id, compensation, ledger, member } = await started();
    member().generationsUsed = 0;
    await compensateGeneration(
      MEMBER,
      id,
      { code: 'GENERATION_FAILED', message: 'x' } as const,
      compensation,
    );
    expect(ledger.balance(team)).toBe(24);
    expect(member().generationsUsed).toBe(0);
  });
});

describe('edits and regenerations of a team headshot', () => {
  // finishedHeadshotWorld's generation is `user-1`'s: here, a member of the team.
  const M = 'user-1';
  const KEYS = [key(0, M)];
  /** The member's finished team headshot (professional, office), the team's ledger and look. */
  async function headshotWorld() {
    const w = await finishedHeadshotWorld(M, KEYS, { style: 'professional', background: 'office' }, 0);
    w.generations.stored(M, w.original.id)!.payer = { team: TEAM };
    w.teams.teams.set(TEAM, teamRecord(TEAM, 'owner', { look: LOOK }));
    await w.ledger.grantCredits({ account: team, amount: 18, ref: 'cs_seats' });
    w.teams.members.set(`${TEAM}/${M}`, { ...memberRecord(TEAM, M, 'member'), generationsUsed: 1 });
    const member = () => w.teams.members.get(`${TEAM}/${M}`)!;
    const edit: EditHeadshotPorts = {
      ...w.ports,
      consumeEdit: (sub) => w.quotas.consumeQuota({ sub }, quotaRules().edits),
      getHeadshot: w.getHeadshot,
      getHeadshotVersion: async () => undefined,
      getGeneration: w.generations.getGeneration,
    };
    const regenerate: RegenerateHeadshotPorts = {
      ...w.ports,
      consumeRegeneration: (sub) => w.quotas.consumeQuota({ sub }, quotaRules().regenerations),
      getHeadshot: w.getHeadshot,
      getGeneration: w.generations.getGeneration,
    };
    const done = (id: string) => (w.generations.stored(M, id)!.status = 'succeeded');
    return { ...w, member, edit, regenerate, done };
  }
  const starter = { sub: M, email: undefined };
  const retouch = { request: { kind: 'retouch', strength: 'natural' } } as const;

  it('spends the member’s 2 team edits, 1 credit each from the team, then TEAM_ALLOWANCE_USED', async () => {
    const { edit, regenerate, ledger, member, headshotId, generations, done } = await headshotWorld();
    const first = await editHeadshot(starter, headshotId, retouch, edit);
    expect(generations.stored(M, first.id)).toMatchObject({ payer: { team: TEAM }, slotCount: 1 });
    done(first.id);
    const second = await regenerateHeadshot(starter, headshotId, regenerate);
    done(second.id);
    expect(member().editsUsed).toBe(2);
    expect(ledger.balance(team)).toBe(16);
    expect(ledger.balance(M)).toBe(0);
    await expect(editHeadshot(starter, headshotId, retouch, edit)).rejects.toEqual(
      new TeamAllowanceUsedError('edits', 2),
    );
  });

  it('refuses the edits that would leave the look (a background or an outfit): LOOK_LOCKED', async () => {
    const { edit, headshotId, ledger } = await headshotWorld();
    const colour = {
      request: { kind: 'background', background: { type: 'colour', colour: '#ff0000' } },
    } as const;
    await expect(editHeadshot(starter, headshotId, colour, edit)).rejects.toEqual(
      new LookLockedError('background'),
    );
    const outfit = { request: { kind: 'outfit', outfit: 'blazer' } } as const;
    await expect(editHeadshot(starter, headshotId, outfit, edit)).rejects.toEqual(
      new LookLockedError('outfit'),
    );
    expect(ledger.balance(team)).toBe(18);
  });

  it('an edit that delivered nothing gives the team its credit and the member the edit back', async () => {
    const { edit, headshotId, ledger, member, generations, teams } = await headshotWorld();
    const started = await editHeadshot(starter, headshotId, retouch, edit);
    const compensation = compensationPortsOf(generations, ledger, teams.members);
    await compensateGeneration(
      M,
      started.id,
      { code: 'LIKENESS_MISMATCH', message: 'x' } as const,
      compensation,
    );
    expect(ledger.balance(team)).toBe(18);
    expect(member().editsUsed).toBe(0);
  });

  it('a former member’s team headshot is theirs: they edit it with their own credits, of any kind', async () => {
    const { edit, headshotId, ledger, member, generations } = await headshotWorld();
    member().membership = 'left';
    ledger.users.get(M)!.credits = 1;
    const colour = {
      request: { kind: 'background', background: { type: 'colour', colour: '#ff0000' } },
    } as const;
    const started = await editHeadshot(starter, headshotId, colour, edit);
    expect(generations.stored(M, started.id)?.payer).toBeUndefined();
    expect(ledger.balance(M)).toBe(0);
    expect(ledger.balance(team)).toBe(18);
  });
});
