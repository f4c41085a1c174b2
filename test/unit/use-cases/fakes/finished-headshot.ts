import type { Background, Style } from '../../../../functions/domain/styles';
import { generationStartWorld } from './generation-start';
import { FakeQuotas } from './quotas';

/**
 * A caller's finished generation with one headshot made from `referenceKeys` (each photo still stored), the caller's
 * credits, and everything a new one-slot generation from it (a regeneration, an edit) starts with, in memory.
 */
export async function finishedHeadshotWorld(
  sub: string,
  referenceKeys: string[],
  look: { style: Style; background: Background },
  credits = 1,
) {
  const w = generationStartWorld();
  const quotas = new FakeQuotas();
  w.ledger.seedUser(sub, credits);
  for (const key of referenceKeys) w.buckets.put('uploads', key, 'photo');
  const original = w.generations.seed({ status: 'succeeded', ...look, referenceKeys });
  const { headshotId } = await w.generations.saveHeadshot({
    sub,
    generationId: original.id,
    slot: 2,
    ...look,
    imageKey: 'k',
    thumbnailKey: 't',
    likeness: 88,
    provider: 'openai',
  });
  /** The caller's headshot by id, as adapters/headshots/records.ts `getHeadshot` reads it (none of another's). */
  const getHeadshot = async (owner: string, id: string) => {
    const headshot = w.generations.headshots.get(id);
    return headshot?.userId === owner ? headshot : undefined;
  };
  return { ...w, quotas, original, headshotId, getHeadshot };
}
