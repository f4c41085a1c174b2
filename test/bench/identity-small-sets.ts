/**
 * The identity check on small sets (docs/decisions/012-small-set-identity.md): sets of 2-10 photos drawn from the
 * labelled evaluation set (test/bench/identity-set.ts), each with 0, 1 or 2 photos of another person, judged by the
 * rule the product used before (each photo against the mean of the others), by the product's rule (anchored on
 * the medoid: functions/domain/photo-checks.ts `differentPersonFlags`, called as is) and by three other robust
 * rules. Per set size,
 * the share of the other person's photos missed, of the customer's photos flagged, and of sets warned as
 * `mixed_people`. Pure and seeded, so every run of one descriptor set gives the same figures.
 */
import { cosine, meanDescriptor } from '../../functions/domain/likeness';
import { differentPersonFlags } from '../../functions/domain/photo-checks';
import type { LabelledDescriptor } from './identity-metrics';

/** What a rule says of one photo: another person, "the set shows different people" (no majority), or nothing. */
export type SetOutcome = 'different_person' | 'mixed_people' | undefined;

/** The two calibrated thresholds a rule may use (cosine; a comparison passes at ≥). */
export interface SetThresholds {
  /** One photo against the mean of two or more others (decision 002's "flag"). */
  flag: number;
  /** One photo against one other (decision 002's "pairs"). */
  pair: number;
}

/** A set rule: one outcome per descriptor, in order. */
export type SetRule = (set: readonly (readonly number[])[], t: SetThresholds) => SetOutcome[];

const nothing = (set: readonly unknown[]): SetOutcome[] => set.map(() => undefined);
const mixed = (set: readonly unknown[]): SetOutcome[] => set.map(() => 'mixed_people');
const others = <T>(set: readonly T[], i: number) => set.filter((_, j) => j !== i);

/** Photos outside `group` that are under the flag threshold against its mean are another person. */
function outsideOf(
  set: readonly (readonly number[])[],
  group: readonly number[],
  t: SetThresholds,
): SetOutcome[] {
  const mean = meanDescriptor(group.map((i) => set[i]!));
  return set.map((d, i) => (!group.includes(i) && cosine(d, mean) < t.flag ? 'different_person' : undefined));
}

/**
 * The rule before decision 012: each photo against the mean of the others, from 3 photos; when more than half are
 * under the threshold, nothing is flagged.
 */
export const leaveOneOut: SetRule = (set, t) => {
  if (set.length < 3) return nothing(set);
  const under = set.map((d, i) => cosine(d, meanDescriptor(others(set, i))) < t.flag);
  if (under.filter(Boolean).length * 2 > set.length) return nothing(set);
  return under.map((u) => (u ? 'different_person' : undefined));
};

/**
 * Iterative exclusion: the worst member leaves the group
 * while one is under the threshold against the rest (the mean of the others; the other one of a pair); a group of
 * half the set or fewer means no majority (`mixed_people`); a photo that left is another person unless it reaches
 * the flag threshold against the final group's mean.
 */
export const iterativeExclusion: SetRule = (set, t) => {
  if (set.length < 2) return nothing(set);
  let group = set.map((_, i) => i);
  for (;;) {
    const scores =
      group.length === 2
        ? group.map(() => cosine(set[group[0]!]!, set[group[1]!]!))
        : group.map((i, k) => cosine(set[i]!, meanDescriptor(others(group, k).map((j) => set[j]!))));
    const worst = scores.indexOf(Math.min(...scores));
    if (scores[worst]! >= (group.length === 2 ? t.pair : t.flag)) break;
    if ((group.length - 1) * 2 <= set.length) return mixed(set);
    group = others(group, worst);
  }
  return outsideOf(set, group, t);
};

/** The upper median (the higher middle value of an even count). */
const upperMedian = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Median of pairwise cosines: a photo whose (upper) median cosine to the other photos is under the pair threshold is
 * another person; when half the set or more is, every photo is `mixed_people`.
 */
export const pairwiseMedian: SetRule = (set, t) => {
  if (set.length < 2) return nothing(set);
  const under = set.map((d, i) => upperMedian(others(set, i).map((o) => cosine(d, o))) < t.pair);
  const count = under.filter(Boolean).length;
  if (count === 0) return nothing(set);
  if (count * 2 >= set.length) return mixed(set);
  return under.map((u) => (u ? 'different_person' : undefined));
};

/**
 * Largest agreeing group (anchor on the medoid's clique): the largest subset whose every pair reaches the pair
 * threshold (all 2^n subsets; n ≤ 10). More than half the set: photos outside it are judged against its mean as
 * iterative exclusion does; half or fewer: `mixed_people`.
 */
export const largestAgreeingGroup: SetRule = (set, t) => {
  const n = set.length;
  if (n < 2) return nothing(set);
  const agree = set.map((a) => set.map((b) => cosine(a, b) >= t.pair));
  let best: number[] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    const group = set.flatMap((_, i) => (mask & (1 << i) ? [i] : []));
    if (group.length > best.length && group.every((i) => group.every((j) => agree[i]![j]))) best = group;
  }
  if (best.length === n) return nothing(set);
  if (best.length * 2 <= n) return mixed(set);
  return outsideOf(set, best, t);
};

/**
 * Medoid anchor, the product's rule: functions/domain/photo-checks.ts `differentPersonFlags` itself (the photo with
 * the highest summed cosine to the others anchors the customer; see its docstring).
 */
export const medoidAnchor: SetRule = (set, t) => differentPersonFlags(set, t);

/** The rules compared, the product's first after the one it replaced. */
export const SET_RULES = {
  'leave-one-out (before)': leaveOneOut,
  'medoid anchor (product)': medoidAnchor,
  'iterative exclusion': iterativeExclusion,
  'pairwise median': pairwiseMedian,
  'largest agreeing group': largestAgreeingGroup,
} as const satisfies Record<string, SetRule>;
export type SetRuleName = keyof typeof SET_RULES;

/** A small seeded generator (mulberry32): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` items of `items` in a random order (Fisher-Yates on a copy). */
function sample<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

/** One cell of the table: sets of `size` photos, `intruders` of them another (single) person's. */
export interface SmallSetCell {
  size: number;
  intruders: number;
  /** Sets judged (0 when no person of the evaluation set has enough photos). */
  sets: number;
  /** Per rule: shares 0-1 of the other person's photos neither flagged nor warned, of the customer's flagged, of sets warned. */
  rules: Record<SetRuleName, { miss: number; falseFlag: number; warned: number }>;
}

/**
 * Samples `perCell` sets for each size 2..`maxSize` and 0, 1 or 2 photos of another person (only where the customer
 * keeps a strict majority or ties), shuffled, and judges each with every rule.
 */
export function smallSetCells(
  photos: readonly LabelledDescriptor[],
  thresholds: SetThresholds,
  { perCell = 2000, maxSize = 10, seed = 11 } = {},
): SmallSetCell[] {
  const byPerson = new Map<string, (readonly number[])[]>();
  for (const p of photos) byPerson.set(p.person, [...(byPerson.get(p.person) ?? []), p.descriptor]);
  const people = [...byPerson.keys()];
  const random = seededRandom(seed);
  const cells: SmallSetCell[] = [];
  for (const intruders of [0, 1, 2])
    for (let size = 2; size <= maxSize; size++) {
      const own = size - intruders;
      if (own < intruders) continue;
      const customers = people.filter((p) => byPerson.get(p)!.length >= own);
      const counts = Object.fromEntries(
        Object.keys(SET_RULES).map((r) => [r, { miss: 0, falseFlag: 0, warned: 0 }]),
      ) as SmallSetCell['rules'];
      let sets = 0;
      for (let s = 0; s < perCell && customers.length > 0; s++) {
        const customer = sample(customers, 1, random)[0]!;
        const candidates = people.filter((p) => p !== customer && byPerson.get(p)!.length >= intruders);
        const other = intruders > 0 ? sample(candidates, 1, random)[0] : undefined;
        if (intruders > 0 && !other) continue;
        const set = sample(
          [
            ...sample(byPerson.get(customer)!, own, random).map((d) => ({ d, genuine: true })),
            ...(other ? sample(byPerson.get(other)!, intruders, random) : []).map((d) => ({
              d,
              genuine: false,
            })),
          ],
          size,
          random,
        );
        sets++;
        for (const [name, rule] of Object.entries(SET_RULES) as [SetRuleName, SetRule][]) {
          const outcomes = rule(
            set.map((p) => p.d),
            thresholds,
          );
          const c = counts[name];
          if (outcomes.includes('mixed_people')) c.warned++;
          set.forEach((p, i) => {
            if (!p.genuine && outcomes[i] === undefined) c.miss++;
            if (p.genuine && outcomes[i] === 'different_person') c.falseFlag++;
          });
        }
      }
      for (const c of Object.values(counts)) {
        c.miss /= Math.max(1, sets * intruders);
        c.falseFlag /= Math.max(1, sets * own);
        c.warned /= Math.max(1, sets);
      }
      cells.push({ size, intruders, sets, rules: counts });
    }
  return cells;
}

const pct = (share: number) => `${(share * 100).toFixed(1)}`;

/** The cells as a Markdown table: per rule "miss / false flag / warned", in %. */
export function smallSetTable(cells: readonly SmallSetCell[]): string {
  const names = Object.keys(SET_RULES) as SetRuleName[];
  const rows = [
    ['set (customer + other)', 'sets', ...names.map((n) => `${n}: miss / false flag / warned %`)],
    ['---', '---', ...names.map(() => '---')],
    ...cells.map((c) => [
      `${c.size}: ${c.size - c.intruders} + ${c.intruders}`,
      c.sets ? String(c.sets) : 'n/a',
      ...names.map((n) => {
        const r = c.rules[n];
        if (!c.sets) return '—';
        return `${c.intruders ? pct(r.miss) : '—'} / ${pct(r.falseFlag)} / ${pct(r.warned)}`;
      }),
    ]),
  ];
  return rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
}
