import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DeadlineConfigError,
  DEFAULT_DEADLINE_MINUTES,
  deadlineOf,
  executionTimeoutSeconds,
  FINISHING_SECONDS,
  generationTimeBudget,
  generationTimeBudgetOf,
  mayStillRun,
  START_ALLOWANCE_SECONDS,
  SWEEP_MARGIN_SECONDS,
  sweepCutoff,
} from '../../functions/domain/generation-deadline';
import { providerTimeouts } from '../../functions/domain/provider-timeouts';
import { stateMachineSubstitutions } from '../../infrastructure/local/stand-ins/step-functions/substitutions';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';

/*
 * One deadline (issue 25 item 3): the admission deadline, the state machine's timeout, "may still run" (deletions)
 * and the sweeper's cutoff all follow from GENERATION_DEADLINE_MINUTES and the slot's worst case.
 */

const MINUTE = 60_000;
const created = Date.parse('2026-11-26T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
/**
 * The default slot: gpt-image-2.6-sunburst at high, CallProvider's Task timeout 270 s and FinishHeadshot's 90 s
 * (changed with the split of the slot, issue 25.5: the finishing is part of the slot's worst case).
 */
const defaultSlot = providerTimeouts('gpt-image-2.6-sunburst', 'high').slotSeconds;

describe('the generation time budget', () => {
  it('with the defaults: 30 min deadline, 360 s slot, 300 s finishing → the execution times out after 2,460 s', () => {
    expect(defaultSlot).toBe(270 + 90);
    const budget = generationTimeBudget(DEFAULT_DEADLINE_MINUTES, defaultSlot);
    expect(budget).toEqual({
      deadlineMinutes: 30,
      slotSeconds: 360,
      executionTimeoutSeconds: 1_800 + 360 + 300,
      // + 60 s from the spend to StartExecution
      maxRuntimeMs: (60 + 2_460) * 1000,
      // + 60 s for the execution-ended function to compensate first
      sweepAfterMs: (60 + 2_460 + 60) * 1000,
      // past the admission deadline (the sweep marker's key): slot + finishing + start + margin
      sweepGraceMs: (360 + 300 + 60 + 60) * 1000,
    });
    expect(executionTimeoutSeconds(30, 270)).toBe(2_370);
  });

  it('grows with the slot: a slower model or a longer client timeout lengthens every limit by as much', () => {
    const fast = generationTimeBudget(30, 270);
    const slow = generationTimeBudget(30, providerTimeouts('gpt-image-2', 'high').taskSeconds); // 450 s
    const longest = generationTimeBudget(30, providerTimeouts('gpt-image-2', 'high', 840).taskSeconds); // 930 s
    expect(slow.executionTimeoutSeconds - fast.executionTimeoutSeconds).toBe(180);
    expect(slow.sweepGraceMs - fast.sweepGraceMs).toBe(180_000);
    expect(longest.executionTimeoutSeconds).toBe(1_800 + 930 + FINISHING_SECONDS);
    expect(longest.maxRuntimeMs).toBe((START_ALLOWANCE_SECONDS + 1_800 + 930 + FINISHING_SECONDS) * 1000);
  });

  it('takes fractional deadlines (tests) and refuses ones that cannot be a limit', () => {
    expect(executionTimeoutSeconds(0.15, 120)).toBe(9 + 120 + 300);
    expect(generationTimeBudget(0.15, 120).sweepGraceMs).toBe((120 + 300 + 60 + 60) * 1000);
    for (const [minutes, slot] of [
      [0, 270],
      [-1, 270],
      [Number.NaN, 270],
      [30, 0],
      [30, 2.5],
    ] as const) {
      expect(() => generationTimeBudget(minutes, slot)).toThrow(DeadlineConfigError);
    }
  });

  it("is what the handlers' environment configures (local Step Functions substitutions too)", () => {
    expect(generationTimeBudgetOf({})).toEqual(generationTimeBudget(30, 270 + 90));
    const env = { GENERATION_DEADLINE_MINUTES: '45', OPENAI_IMAGE_MODEL: 'gpt-image-2' };
    expect(generationTimeBudgetOf(env)).toEqual(generationTimeBudget(45, 450 + 90));
    const values = stateMachineSubstitutions([], 'us-east-1', env);
    expect(values.ExecutionTimeoutSeconds).toBe(String(45 * 60 + 450 + 90 + 300));
    expect(values.GenerateHeadshotTimeoutSeconds).toBe('450');
    expect(values.FinishHeadshotTimeoutSeconds).toBe('90');
  });
});

describe('a generation admitted just before its deadline', () => {
  const budget = generationTimeBudget(30, 270 + 90);
  // StartExecution answered 20 s after the spend; the last slot was admitted 1 s before the deadline.
  const startedAt = created + 20_000;
  const deadline = deadlineOf(iso(startedAt), 30);
  const admittedAt = deadline - 1_000;
  // Its call and its finishing run their whole Task timeouts, then release, Finalize and the e-mail take their time.
  const callEnds = admittedAt + budget.slotSeconds * 1000;
  const finished = callEnds + (FINISHING_SECONDS - 10) * 1000;

  it('finishes inside the execution timeout', () => {
    expect(deadline).toBe(startedAt + 30 * MINUTE);
    expect(finished).toBeLessThan(startedAt + budget.executionTimeoutSeconds * 1000);
  });

  it('"may still run" until every execution of it has ended, so deleting data waits', () => {
    // 35 minutes in: its call is still running (the old 20-minute rule said it was over).
    expect(mayStillRun(iso(created), created + 35 * MINUTE, budget)).toBe(true);
    expect(mayStillRun(iso(created), callEnds, budget)).toBe(true);
    expect(mayStillRun(iso(created), finished, budget)).toBe(true);
    expect(mayStillRun(iso(created), created + budget.maxRuntimeMs - 1, budget)).toBe(true);
    expect(mayStillRun(iso(created), created + budget.maxRuntimeMs, budget)).toBe(false);
    expect(mayStillRun('not a date', created, budget)).toBe(true);
  });

  it('is not swept while it may run, and is swept once no execution can be working on it', () => {
    // The sweep marker is keyed by the admission deadline counted from creation (adapters/sweeper.ts).
    const markerDeadline = iso(created + 30 * MINUTE);
    const swept = (now: number) => markerDeadline < sweepCutoff(now, budget);
    expect(swept(created + 30 * MINUTE + 61_000)).toBe(false); // the old cutoff: deadline + 60 s
    expect(swept(callEnds)).toBe(false);
    expect(swept(finished)).toBe(false);
    expect(swept(created + budget.maxRuntimeMs)).toBe(false);
    expect(swept(created + budget.sweepAfterMs)).toBe(false); // exactly at: the marker is not before the cutoff
    expect(swept(created + budget.sweepAfterMs + 1)).toBe(true);
    expect(budget.sweepAfterMs).toBe(budget.maxRuntimeMs + SWEEP_MARGIN_SECONDS * 1000);
  });
});

describe('FINISHING_SECONDS', () => {
  interface State {
    Type: string;
    TimeoutSeconds?: number | string;
    Next?: string;
    Catch?: { Next: string }[];
    ItemProcessor?: { States: Record<string, State> };
  }
  // Placeholders are not JSON: `${X}` in a number position becomes a string for this reading.
  const asl = JSON.parse(
    readFileSync(join(REPO_ROOT, 'statemachines', 'generation.asl.json'), 'utf8').replace(
      /: \$\{([^}]+)\}/g,
      ': "${$1}"',
    ),
  ) as { States: Record<string, State> };

  /** The longest sum of Task timeouts on a path from `name` to an end (every Next and Catch target). */
  function longestTasks(
    states: Record<string, State>,
    name: string | undefined,
    seen = new Set<string>(),
  ): number {
    if (!name || seen.has(name)) return 0;
    const state = states[name]!;
    const own = state.Type === 'Task' && typeof state.TimeoutSeconds === 'number' ? state.TimeoutSeconds : 0;
    const next = [state.Next, ...(state.Catch ?? []).map((c) => c.Next)];
    return own + Math.max(0, ...next.map((n) => longestTasks(states, n, new Set([...seen, name]))));
  }

  it("covers the ASL's Task timeouts around the last call, with a minute for retries", () => {
    const [mapName, map] = Object.entries(asl.States).find(([, s]) => s.ItemProcessor)!;
    // In the slot: every Task other than the provider call and its finishing (their timeouts are `${…}`
    // substitutions, counted in the slot's worst case), once.
    const inSlot = Object.values(map.ItemProcessor!.States)
      .filter((s) => s.Type === 'Task' && typeof s.TimeoutSeconds === 'number')
      .reduce((sum, s) => sum + (s.TimeoutSeconds as number), 0);
    // After the Map: the longest path to an end (Finalize, then the e-mail or the compensation).
    const after = Math.max(
      ...[map.Next, ...(map.Catch ?? []).map((c) => c.Next)].map((n) =>
        longestTasks(asl.States, n, new Set([mapName])),
      ),
    );
    // Today 30 + 30 in the slot, 60 + 60 + 30 + 30 after it: 240 s.
    expect(inSlot + after + 60).toBeLessThanOrEqual(FINISHING_SECONDS);
  });
});
