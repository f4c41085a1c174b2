import type { HeadshotVersion } from '../../../frontend/src/lib/api/contracts';

/** A version `V<n>` made by generation `G<n>`, with `patch`. */
export function versionOf(n: number, patch: Partial<HeadshotVersion> = {}): HeadshotVersion {
  return {
    id: `V${n}`,
    headshotId: 'H1',
    sourceVersionId: null,
    generationId: `G${n}`,
    edit: { kind: 'upscale' },
    likeness: 91,
    preview: false,
    transparent: false,
    createdAt: '2026-01-02T00:00:00.000Z',
    thumbnailUrl: `https://s3/t/V${n}`,
    imageUrl: `https://s3/i/V${n}`,
    variants: [
      { variant: 'square', width: 1024, height: 1024, fileName: `v${n}.jpg`, url: `https://s3/i/V${n}` },
    ],
    ...patch,
  };
}
