import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestUser, type TestUser } from '../helpers/cognito';

/** What the benchmark's sections need to reach the local stack it started. */
export interface BenchStack {
  gatewayUrl: string;
  userPoolId: string;
  clientId: string;
}

/** The fixture photos (`test/fixtures/photos/`), read only. */
export const FIXTURE_PHOTOS_DIR = fileURLToPath(new URL('../fixtures/photos/', import.meta.url));

/**
 * Calls the API with a bearer token and a JSON body when given.
 *
 * @throws {Error} naming the status and body when the answer is not one of `expect`
 */
export async function apiJson<T>(
  stack: BenchStack,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  expect: readonly number[] = [200],
): Promise<T> {
  const res = await fetch(`${stack.gatewayUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A new confirmed Cognito user of the local pool whose user item (6 credits) exists: `GET /api/me` was called. */
export async function signedUpUser(stack: BenchStack): Promise<TestUser> {
  const user = await createTestUser({ userPoolId: stack.userPoolId, clientId: stack.clientId });
  await apiJson(stack, user.idToken, 'GET', '/api/me');
  return user;
}

/**
 * Uploads fixture photos the way the browser does: `POST /api/uploads`, then one multipart POST per file to its
 * presigned URL (fields first, the file last).
 *
 * @returns the upload keys, in order
 */
export async function uploadFixtures(
  stack: BenchStack,
  token: string,
  names: readonly string[],
): Promise<string[]> {
  const files = names.map((name) => ({ name, bytes: readFileSync(`${FIXTURE_PHOTOS_DIR}${name}`) }));
  const { uploads } = await apiJson<{
    uploads: { key: string; url: string; fields: Record<string, string> }[];
  }>(stack, token, 'POST', '/api/uploads', {
    files: files.map((f) => ({ contentType: 'image/jpeg', size: f.bytes.length })),
  });
  await Promise.all(
    uploads.map(async (upload, i) => {
      const file = files[i]!;
      const form = new FormData();
      for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
      form.append('file', new Blob([new Uint8Array(file.bytes)], { type: 'image/jpeg' }), file.name);
      const res = await fetch(upload.url, { method: 'POST', body: form });
      if (res.status !== 204) throw new Error(`upload of ${file.name} → ${res.status}: ${await res.text()}`);
    }),
  );
  return uploads.map((u) => u.key);
}

/** Starts a professional, studio-background generation from `referenceKeys` (`POST /api/generations`, 202): its id. */
export async function startGeneration(
  stack: BenchStack,
  token: string,
  referenceKeys: string[],
): Promise<string> {
  const { id } = await apiJson<{ id: string }>(
    stack,
    token,
    'POST',
    '/api/generations',
    { style: 'professional', background: 'studio', referenceKeys },
    [202],
  );
  return id;
}
