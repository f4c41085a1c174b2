/**
 * What the cost report (docs/costs.md) cannot read from the template or the code: how long things take and how many
 * requests a generation makes. Each is one typed figure with where it comes from; docs/costs.md prints them all.
 * Everything else the report uses is read from the synthesized template (inventory.ts) or the code's own constants.
 */

/** One assumed figure. */
export interface Assumption {
  value: number;
  /** Its unit as the report prints it: `s`, `requests`, `KB`. */
  unit: string;
  /** Where it comes from: a measurement (file and day), a document, or what it is an estimate of. */
  source: string;
}

const BEFORE = "issue 25's estimate in the hand-typed docs/costs.md";

/** The figures of one generation of 6 headshots with nobody else in line, and of a month of them. */
export const ASSUMPTIONS = {
  providerCallSeconds: {
    value: 90,
    unit: 's',
    source: 'docs/openai-image-models.md: an edit at `high` takes 60-150 s',
  },
  finishSeconds: {
    value: 5,
    unit: 's',
    source: `FinishHeadshot: decode, likeness, the encodes, uploads, one transaction; ${BEFORE}`,
  },
  prepareReferencesSeconds: { value: 4, unit: 's', source: BEFORE },
  photoChecks: { value: 3, unit: 'requests', source: `photo-check requests before a generation; ${BEFORE}` },
  photoCheckSeconds: { value: 1.5, unit: 's', source: BEFORE },
  shortTaskSeconds: {
    value: 0.2,
    unit: 's',
    source: 'each short workflow task and dispatcher run: a few DynamoDB or SQS calls (estimate)',
  },
  apiSeconds: { value: 0.08, unit: 's', source: 'an API handler: one or two DynamoDB calls (estimate)' },
  otherApiRequests: {
    value: 12,
    unit: 'requests',
    source: 'the wizard besides its polls: uploads, packs, me, start, the gallery (estimate)',
  },
  pollSeconds: {
    value: 1.5,
    unit: 's',
    source:
      'the wizard polls the generation every 1.5 s (frontend/src/hooks/use-generation.ts `POLL_INTERVAL_MS`)',
  },
  transitionsPerSlot: {
    value: 7,
    unit: 'transitions',
    source: 'measured by `npm run bench`, "provider queue at scale" (decision 010)',
  },
  topLevelTransitions: { value: 6, unit: 'transitions', source: BEFORE },
  dynamoWrites: { value: 120, unit: 'write units', source: BEFORE },
  dynamoReads: { value: 150, unit: 'read units', source: BEFORE },
  sqsRequestsPerSlot: {
    value: 3,
    unit: 'requests',
    source: "a slot's task token: send, receive, delete (estimate)",
  },
  photosUploaded: {
    value: 8,
    unit: 'photos',
    source: 'customers upload 5-10 selfies (docs/product-spec.md)',
  },
  photoMegabytes: { value: 3, unit: 'MB', source: 'a phone selfie (estimate; at most 10 MB)' },
  s3Gets: { value: 45, unit: 'requests', source: BEFORE },
  traces: { value: 100, unit: 'traces', source: BEFORE },
  logKilobytes: {
    value: 250,
    unit: 'KB',
    source: `Lambda and state machine lines, API access logs; ${BEFORE}`,
  },
  emails: { value: 1, unit: 'e-mail', source: 'the "headshots ready" e-mail' },
  secretReads: {
    value: 18,
    unit: 'calls',
    source: `GetSecretValue through the extension's cache; ${BEFORE}`,
  },
  edgeRequests: { value: 150, unit: 'requests', source: `through CloudFront and its web ACL; ${BEFORE}` },
  analyticsRecords: {
    value: 15,
    unit: 'records',
    source: 'product analytics events, each billed as 5 KB (estimate)',
  },
  scheduledRunSeconds: {
    value: 0.2,
    unit: 's',
    source: 'a scheduled run (sweeper, lease reaper) on an idle stage: one query (estimate)',
  },
  monthlyActiveUsers: {
    value: 5_000,
    unit: 'users',
    source: 'at 10,000 generations a month: about 2 each, and free-credit sign-ups who never buy (estimate)',
  },
} as const satisfies Record<string, Assumption>;

/** The month the report prices. */
export const GENERATIONS_PER_MONTH = 10_000;

/**
 * Bytes per pixel of each stored file format, at functions/adapters/headshot-files.ts's settings: measured on
 * 2026-11-29 as the mean over the four photos of test/fixtures/photos (biden, obama, obama3, obama-12mp) cut to a
 * 1024×1280 canvas — PNG 1.62-2.44, JPEG at quality 90 0.17-0.21, WebP at quality 80 0.07-0.12 bytes per pixel.
 * A generated headshot has at least a photo's detail; the PNG original dominates.
 */
export const BYTES_PER_PIXEL = {
  'image/png': { value: 2.09, unit: 'bytes/px', source: 'PNG, zlib level 6 (measured 2026-11-29, above)' },
  'image/jpeg': { value: 0.185, unit: 'bytes/px', source: 'JPEG, quality 90 (measured 2026-11-29, above)' },
  'image/webp': {
    value: 0.1,
    unit: 'bytes/px',
    source: 'WebP thumbnail, quality 80 (measured 2026-11-29, above)',
  },
} as const satisfies Record<string, Assumption>;
