import type { Generation, GenerationStarted, Headshot } from '../../../frontend/src/lib/api/contracts';

/**
 * API answers for the SPA's unit tests, in the shapes of `lib/api/contracts.ts`: a headshot `H<slot>` as a
 * generation returns it (change any field with `patch`), a running generation `GEN1` and its start.
 */
export function headshotOf(slot: number, patch: Partial<Headshot> = {}): Headshot {
  const id = patch.id ?? `H${slot}`;
  return {
    id,
    generationId: 'GEN1',
    slot,
    style: 'business-casual',
    background: 'office',
    isFavorite: false,
    likeness: null,
    preview: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    thumbnailUrl: `https://s3/t/${id}`,
    imageUrl: `https://s3/i/${id}`,
    downloadUrl: `https://s3/d/${id}`,
    fileName: `headshot-${id}.jpg`,
    variants: [
      {
        variant: 'square',
        width: 1024,
        height: 1024,
        fileName: `headshot-${id}.jpg`,
        url: `https://s3/i/${id}`,
      },
    ],
    ...patch,
  };
}

/** A generation `GEN1` (running, 6 headshots expected, none saved yet) with `patch` applied. */
export function generationOf(patch: Partial<Generation> = {}): Generation {
  return {
    id: 'GEN1',
    status: 'running',
    stage: 'generating',
    progress: 5,
    style: 'business-casual',
    background: 'office',
    error: null,
    queue: null,
    headshotsExpected: 6,
    regeneratedFrom: null,
    headshots: [],
    creditsReserved: 6,
    creditsRefunded: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    completedAt: null,
    urlsExpireAt: new Date(Date.now() + 900_000).toISOString(),
    ...patch,
  };
}

/** `POST /api/generations`' 202 for `GEN1`: 6 credits reserved, `credits` left (default 0), plus `patch`. */
export function startedOf(patch: Partial<GenerationStarted> = {}): GenerationStarted {
  return {
    id: 'GEN1',
    status: 'queued',
    stage: 'queued',
    progress: 5,
    style: 'business-casual',
    background: 'office',
    creditsReserved: 6,
    credits: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...patch,
  };
}
