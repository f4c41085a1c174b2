import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, inject } from 'vitest';
import type { Headshot } from '../../functions/contracts';
import { createTestUser, type TestUser } from './cognito';

/** The fixture photos (test/fixtures/photos; read only). */
export const FIXTURE_PHOTOS = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));

/** One photo to upload. */
export interface PhotoFile {
  name: string;
  bytes: Buffer;
  contentType: string;
}

/** A fixture photo with the content type a browser would give it. */
export function fixturePhoto(name: string): PhotoFile {
  const contentType = name.endsWith('.heic') ? 'image/heic' : 'image/jpeg';
  return { name, bytes: readFileSync(`${FIXTURE_PHOTOS}${name}`), contentType };
}

/** Calls the API with a bearer token; JSON body when given. */
export function api(
  gatewayUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${gatewayUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A presigned upload as `POST /api/uploads` answers it. */
export interface PresignedUpload {
  key: string;
  url: string;
  fields: Record<string, string>;
}

/**
 * Uploads photos the way the browser does: `POST /api/uploads`, then one multipart POST per file to its presigned
 * URL (fields first, the file last as `file`).
 *
 * @returns the object keys, in the order of `files`
 */
export async function uploadPhotos(gatewayUrl: string, token: string, files: PhotoFile[]): Promise<string[]> {
  const res = await api(gatewayUrl, token, 'POST', '/api/uploads', {
    files: files.map((f) => ({ contentType: f.contentType, size: f.bytes.length })),
  });
  expect(res.status).toBe(200);
  const { uploads } = (await res.json()) as { uploads: PresignedUpload[] };
  await Promise.all(
    uploads.map(async (upload, i) => {
      const file = files[i]!;
      const form = new FormData();
      for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
      form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.name);
      const post = await fetch(upload.url, { method: 'POST', body: form });
      expect(post.status, await post.text()).toBe(204);
    }),
  );
  return uploads.map((u) => u.key);
}

/** `GET /api/generations/{id}` as the wizard reads it. */
export interface GenerationView {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';
  stage: string;
  progress: number;
  style: string;
  background: string;
  error: { code: string; message: string } | null;
  /** The place in the provider's line while waiting (position 0 = running); null before the line and once ended. */
  queue: { position: number; etaSeconds: number } | null;
  headshotsExpected: number;
  /** The headshot a one-slot generation regenerates, or null. */
  regeneratedFrom?: string | null;
  headshots: Headshot[];
  creditsReserved: number;
  creditsRefunded: number;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  urlsExpireAt: string;
}

/** What {@link pollGeneration} saw on the way. */
export interface PollResult {
  final: GenerationView;
  /** Every answer, in order. */
  seen: GenerationView[];
  /** Wall time from the first poll to the final answer, in ms. */
  elapsedMs: number;
}

/**
 * Polls `GET /api/generations/{id}` like the wizard (here every 250 ms) until the status is final.
 *
 * @throws (test failure) after `timeoutMs`
 */
export async function pollGeneration(
  gatewayUrl: string,
  token: string,
  id: string,
  timeoutMs = 90_000,
): Promise<PollResult> {
  const started = Date.now();
  const seen: GenerationView[] = [];
  for (;;) {
    const res = await api(gatewayUrl, token, 'GET', `/api/generations/${id}`);
    expect(res.status).toBe(200);
    const view = (await res.json()) as GenerationView;
    seen.push(view);
    if (['succeeded', 'partial', 'failed'].includes(view.status)) {
      return { final: view, seen, elapsedMs: Date.now() - started };
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`Generation ${id} still ${view.status} (${view.progress}%) after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Progress only ever goes up, and every answer has a known stage. */
export function expectMonotonicProgress(seen: GenerationView[]): void {
  for (let i = 1; i < seen.length; i++) {
    expect(seen[i]!.progress).toBeGreaterThanOrEqual(seen[i - 1]!.progress);
  }
  for (const view of seen)
    expect(['queued', 'preparing', 'generating', 'done', 'failed']).toContain(view.stage);
}

/**
 * A new user (6 credits) with `photos` uploaded as reference photos through `gatewayUrl`; the user is created in the
 * shared stack's user pool and their user item by `GET /api/me`.
 */
export async function newUserWithPhotos(
  gatewayUrl: string,
  photos: string[],
): Promise<{ user: TestUser; keys: string[] }> {
  const { runtimeConfig } = inject('localStack');
  const user = await createTestUser({
    userPoolId: runtimeConfig.userPoolId,
    clientId: runtimeConfig.userPoolClientId,
  });
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return { user, keys: await uploadPhotos(gatewayUrl, user.idToken, photos.map(fixturePhoto)) };
}

/** `POST /api/generations` for `user` with the uploaded `keys`; expects 202 and returns the generation id. */
export async function startGeneration(
  gatewayUrl: string,
  user: TestUser,
  keys: string[],
  choice: { style: string; background: string; outfit?: string } = {
    style: 'professional',
    background: 'studio',
  },
): Promise<string> {
  const res = await api(gatewayUrl, user.idToken, 'POST', '/api/generations', {
    ...choice,
    referenceKeys: keys,
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}
