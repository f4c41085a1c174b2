import { ulid } from 'ulid';
import type { UserRecord } from '../../../../functions/adapters/ledger';
import { compensateGeneration } from '../../../../functions/use-cases/compensate-generation';
import { enforceLikenessCapAtStart } from '../../../../functions/use-cases/likeness-cap';
import { enforceRefusalCapAtStart } from '../../../../functions/use-cases/provider-refusals';
import { assertLineHasRoom } from '../../../../functions/use-cases/provider-line-room';
import { FakeProviderQueue } from './provider-queue';
import { safetyIdentifier } from '../../../../functions/domain/provider-refusals';
import type { StartGenerationPorts } from '../../../../functions/use-cases/start-generation';
import { isTerminal } from '../../../../functions/domain/generation-status';
import { generationInFlight } from '../../../../functions/domain/quotas';
import { compensationPortsOf, FakeGenerations } from './generations';
import { FakeLedger } from './ledger';
import { FakeLikenessCap } from './likeness-cap';
import { FakeMarkers } from './markers';
import { FakePhotoCheckCache } from './photos';
import { FakeProviderRefusals } from './provider-refusals';
import { FakeBuckets } from './storage';
import { effectItem } from './transactions';
import { fakeSeatUseItem } from './team-seat-uses';
import { teamStore } from '../../../helpers/team-store';

/** The clock of a generation start: 2026-01-01 12:00 UTC. */
export const START = new Date('2026-01-01T12:00:00.000Z');

/** The customer who starts the generations, as the handlers pass them to the use cases. */
export const SUB = 'user-1';
export const STARTER = { sub: SUB, email: undefined };

/** The upload key of photo `n` of the batch the tests upload (`uploads/<sub>/<batch>/<n>`). */
export const uploadKey = (n: number, sub = SUB, batch = '01KDWYDY00BBBBBBBBBBBBBBBB') =>
  `uploads/${sub}/${batch}/${n}`;

/** The key of the fakes' safety identifiers (the stack's pepper in the cloud). */
export const TEST_PEPPER = 'test-pepper';

/** The execution inputs Step Functions was asked to start, and whether it refuses. */
export class FakeExecutions {
  readonly started: Parameters<StartGenerationPorts['startGenerationExecution']>[0][] = [];
  refuseWith: Error | undefined;

  readonly startGenerationExecution: StartGenerationPorts['startGenerationExecution'] = async (input) => {
    if (this.refuseWith) throw this.refuseWith;
    this.started.push(structuredClone(input));
    return `arn:aws:states:eu-west-1:123456789012:execution:generation:${input.generationId}`;
  };
}

/**
 * Everything a generation's start touches, in memory: the ledger (balances, the spend with its related item and
 * guard), the generation items, the uploads and their stored photo checks, the likeness cap, the provider refusals, the sweep markers and Step
 * Functions. The guard is
 * adapters/generation-guard.ts's rules: the previous generation must be terminal (checked first, and again in the
 * transaction) and `lastGenerationId` unchanged since it was read, with no account deletion started. `teams` is a
 * team store (test/helpers/team-store.ts) whose team items carry their ledgers, for team-paid starts.
 */
export function generationStartWorld() {
  const teams = teamStore();
  const ledger = new FakeLedger(teams.teams);
  const generations = new FakeGenerations();
  const buckets = new FakeBuckets();
  // What the wizard's photo check stored (empty: no photo was checked, the start judges no set).
  const photoChecks = new FakePhotoCheckCache();
  const cap = new FakeLikenessCap();
  const refusals = new FakeProviderRefusals(cap.stops);
  const markers = new FakeMarkers();
  const executions = new FakeExecutions();
  // The provider line the start asks for room (empty: every start fits).
  const line = new FakeProviderQueue();
  const previousIsOver = (user: UserRecord, previous: string) => {
    const generation = generations.stored(user.id, previous);
    return !generation || isTerminal(generation.status);
  };
  const ports: StartGenerationPorts = {
    headObject: buckets.headObject,
    objectSha256: buckets.objectSha256,
    cachedPhotoChecks: photoChecks.cachedPhotoChecks,
    ensureUser: ledger.ensureUser,
    getUser: ledger.getUser,
    generationStartGuard: async (user, newGenerationId, cost) => {
      const previous = user?.lastGenerationId;
      if (user && previous && user.credits >= cost && !previousIsOver(user, previous))
        throw generationInFlight();
      return {
        profileGuard: ledger.profileGuard({
          check: (current) => !current.deletingAt && current.lastGenerationId === previous,
          apply: (current) => {
            current.lastGenerationId = newGenerationId;
          },
        }),
        extraItems:
          user && previous
            ? [effectItem({ check: () => previousIsOver(user, previous), apply: () => undefined })]
            : [],
      };
    },
    enforceLikenessCap: (sub, balance, hash, nowMs) =>
      enforceLikenessCapAtStart(sub, balance, hash, nowMs, cap.ports),
    enforceRefusalCap: (sub, hash, nowMs) => enforceRefusalCapAtStart(sub, hash, nowMs, refusals.ports),
    assertLineHasRoom: (sub, slots, nowMs) => assertLineHasRoom(sub, slots, nowMs, line),
    safetyIdentifier: (sub) => safetyIdentifier(sub, TEST_PEPPER),
    // The related item (the generation) commits with the spend, or neither does.
    spendCredits: async (change) => {
      const result = await ledger.spendCredits(change);
      if (result.applied && change.related) generations.insertItem(change.related.item);
      return result;
    },
    sweepMarkerPut: (sub, generationId, createdAt) =>
      effectItem({
        check: () => true,
        apply: () => void markers.addSweepMarker(sub, generationId, createdAt),
      }),
    startGenerationExecution: executions.startGenerationExecution,
    setExecutionArn: generations.setExecutionArn,
    compensateGeneration: (sub, id, error) =>
      compensateGeneration(sub, id, error, compensationPortsOf(generations, ledger, teams.members)),
    newId: () => ulid(START.getTime()),
    now: () => START,
    // A team-paid start (use-cases/generation-payment.ts): the team's reads, and its spend's own items.
    getTeam: teams.getTeam,
    getMember: teams.getMember,
    userGuardItem: (sub, guard) => {
      const effect = ledger.profileEffectOf(guard);
      return effectItem({
        check: () => {
          const user = ledger.users.get(sub);
          return !!user && effect.check(user);
        },
        apply: () => effect.apply(ledger.users.get(sub)!),
      });
    },
    seatUseItem: fakeSeatUseItem(teams.members),
    generationItemPut: (item) =>
      effectItem({
        check: () => !generations.stored(String(item.userId), String(item.id)),
        apply: () => generations.insertItem(item),
      }),
  };
  return {
    ledger,
    generations,
    buckets,
    photoChecks,
    cap,
    refusals,
    markers,
    executions,
    line,
    teams,
    ports,
  };
}
