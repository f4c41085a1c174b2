import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Generation } from '../../../lib/api/contracts';
import { isFinished } from '../../../lib/api/get-generation';
import { meQueryKey } from '../../../lib/api/get-me';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import { useGeneration } from '../../../hooks/use-generation';
import { useVersions, versionsQueryKey, type HeadshotVersion } from '../api/get-versions';

/**
 * A partial image the model streamed for a slot still being made (issue 36 item 5; `GET /api/generations/{id}`
 * `partialPreviews`): a presigned URL of the latest one and its index in the stream.
 */
export type PartialPreview = NonNullable<Generation['partialPreviews']>[number];

/** Where an edit is, as the viewer says it (docs/product-spec.md §2 "Edit a headshot"). */
export type EditOutcome =
  /** Still being made (or delivered, while its version is not yet in the list). */
  | { state: 'running'; progress: number; preview: PartialPreview | null }
  /** Delivered: the new version. */
  | { state: 'delivered'; version: HeadshotVersion }
  /** Not delivered, the credit refunded; `likeness` when its face did not pass the likeness check. */
  | { state: 'refunded'; likeness: boolean };

/** The latest partial image of slot 0 of an edit, or null (none streamed, or an answer from before they existed). */
export function latestPartialPreview(generation: Generation | undefined): PartialPreview | null {
  const previews = generation?.partialPreviews ?? [];
  return previews
    .filter((p) => p.slot === 0)
    .reduce<PartialPreview | null>(
      (latest, p) => (latest === null || p.index > latest.index ? p : latest),
      null,
    );
}

/**
 * What an edit's one-slot generation came to: `delivered` once it succeeded without a refund AND its version is in
 * the headshot's list (the finished image shows only then, after the likeness check); `refunded` when it finished
 * otherwise (failed, or its slot refunded); else `running`, with the latest partial image while the model streams.
 */
export function editOutcome(
  generation: Generation | undefined,
  versions: readonly HeadshotVersion[] | undefined,
): EditOutcome {
  if (!generation || !isFinished(generation.status)) {
    return {
      state: 'running',
      progress: generation?.progress ?? 0,
      preview: latestPartialPreview(generation),
    };
  }
  if (generation.status !== 'succeeded' || generation.creditsRefunded > 0) {
    return { state: 'refunded', likeness: generation.error?.code === 'LIKENESS_MISMATCH' };
  }
  const version = versions?.find((v) => v.generationId === generation.id);
  if (!version) return { state: 'running', progress: 100, preview: latestPartialPreview(generation) };
  return { state: 'delivered', version };
}

/**
 * Follows an edit's generation (`generationId`, null when none runs) by polling it as the regenerate flow does
 * (hooks/use-generation.ts), and once it has finished reads the headshot's versions again so the new one arrives.
 */
export function useEditProgress(headshotId: string, generationId: string | null): EditOutcome | null {
  const { data: generation } = useGeneration(generationId);
  const versions = useVersions(headshotId).data;
  const queryClient = useQueryClient();
  const sub = useAuth().user?.sub ?? null;
  const finished = isFinished(generation?.status);
  useEffect(() => {
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: versionsQueryKey(sub, headshotId) });
    // A refund puts the credit back on the balance; a delivered version changes the gallery card's versions count.
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
    void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
  }, [finished, queryClient, sub, headshotId]);
  if (generationId === null) return null;
  return editOutcome(generation, versions);
}
