import { ulid } from 'ulid';
import { newGenerationItem } from '../../functions/adapters/generations';

/**
 * A new generation of `sub` as the benches seed it: a fresh id, the item the spend transaction writes for a
 * professional headshot on the studio background (status `queued`, 6 slots), so a handler that reads the generation
 * (CallProvider, the provider queue's gate) finds it.
 *
 * @param referenceKeys the uploads' normalised keys the slots read (none where only the item must exist)
 */
export function benchGenerationItem(
  sub: string,
  referenceKeys: string[] = [],
): { id: string; item: Record<string, unknown> & { PK: string; SK: string } } {
  const id = ulid();
  const item = newGenerationItem({
    id,
    sub,
    style: 'professional',
    background: 'studio',
    referenceKeys,
    now: new Date().toISOString(),
  });
  return { id, item: item as Record<string, unknown> & { PK: string; SK: string } };
}
