import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, inject, it } from 'vitest';
import { beginAccountDeletion } from '../../functions/adapters/account-deletion';
import { consumeQuota, quotaRules } from '../../functions/adapters/quotas';
import { routes } from '../../functions/http/routes';
import { runAsFunction, type IamDenial } from '../../infrastructure/local/iam/caller';
import { localIamCheck } from '../../infrastructure/local/iam/local-check';
import { loadSynthesizedRoles } from '../../infrastructure/local/iam/roles';
import type { SynthesizedRoles } from '../../infrastructure/local/iam/synthesized';
import { iamCheckExtension } from '../../infrastructure/local/iam/middleware';
import { createLambdaRuntime } from '../../infrastructure/local/stand-ins/lambda/runtime';
import { S3RVER_CREDENTIALS, startS3 } from '../../infrastructure/local/stand-ins/s3/s3rver';
import { createPartLog } from '../../infrastructure/local/support/log';
import { findFreePort } from '../../infrastructure/local/support/ports';
import { LOCAL_NAMES } from '../../infrastructure/local/support/settings';
import { testTempDir } from '../helpers/temp-dir';
import { createTestUser } from '../helpers/cognito';
import { api } from '../helpers/generation';
import { startRouteGateway } from '../helpers/route-gateway';

/*
 * IAM enforced where the code runs locally (docs/decisions/016-local-iam.md), on the shared emulators: the handler of
 * POST /api/uploads with its role as the stack synthesizes it, and with one permission its code uses taken away.
 * The shared stack (test/global-setup.ts) runs every handler under the same check.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };
const uploadRoutes = routes.filter((r) => r.handler === 'http/create-uploads');
const FUNCTION = 'http-create-uploads';

/** `roles` with `action` taken out of every statement of `functionName`'s role. */
function withoutAction(roles: SynthesizedRoles, functionName: string, action: string): SynthesizedRoles {
  const copy = structuredClone(roles);
  type Statement = { Action: string | string[] };
  for (const document of copy.functions[functionName]!.policies as { Statement: Statement[] }[]) {
    for (const statement of document.Statement) {
      const actions = [statement.Action].flat().filter((a) => a !== action);
      statement.Action = actions.length > 0 ? actions : ['none:None'];
    }
  }
  return copy;
}

/** A gateway of this file serving POST /api/uploads from a runtime checked against `roles`. */
async function uploadsGateway(roles: SynthesizedRoles, denials: IamDenial[]) {
  const iam = localIamCheck({ roles, onDenied: (_name, denial) => denials.push(denial) });
  const runtime = createLambdaRuntime(
    [{ name: FUNCTION, handler: 'http/create-uploads', timeoutSeconds: 30 }],
    {
      iam,
    },
  );
  return { iam, gateway: await startRouteGateway({ routes: uploadRoutes, runtime }) };
}

const presign = (url: string, token: string) =>
  api(url, token, 'POST', '/api/uploads', { files: [{ contentType: 'image/jpeg', size: 1000 }] });

describe('local IAM', () => {
  it('fails a handler whose role lacks a permission its code uses with AccessDeniedException, and answers 409 for an account being deleted with the role as synthesized', async () => {
    const synthesized = await loadSynthesizedRoles();
    const user = await createTestUser(pool);
    expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
    await beginAccountDeletion(user.sub);

    // Without dynamodb:GetItem the refused quota transaction cannot tell a deleting account from a deleted one.
    const denials: IamDenial[] = [];
    const lacking = await uploadsGateway(withoutAction(synthesized, FUNCTION, 'dynamodb:GetItem'), denials);
    try {
      const res = await presign(lacking.gateway.url, user.idToken);
      expect(res.status).toBe(500);
      expect(denials.map((d) => d.request.action)).toEqual(['dynamodb:GetItem']);
      // The same adapter call as the handler's, in the function's invocation: the SDK's error, AWS's message.
      const error = await runAsFunction({ functionName: FUNCTION, iam: lacking.iam }, () =>
        consumeQuota({ sub: user.sub }, quotaRules().uploads).then(
          () => undefined,
          (e: unknown) => e as Error & { $metadata: { httpStatusCode: number } },
        ),
      );
      expect(error?.name).toBe('AccessDeniedException');
      expect(error?.$metadata.httpStatusCode).toBe(400);
      expect(error?.message).toMatch(
        /^User: arn:aws:sts::000000000000:assumed-role\/\w+\/http-create-uploads is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:000000000000:table\/\S+ because no identity-based policy allows the dynamodb:GetItem action$/,
      );
    } finally {
      await lacking.gateway.stop();
    }

    // With the role as synthesized: 409, under the check, here and on the shared stack.
    const granted = await uploadsGateway(synthesized, denials);
    try {
      for (const url of [granted.gateway.url, gatewayUrl]) {
        const res = await presign(url, user.idToken);
        expect(res.status).toBe(409);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ACCOUNT_DELETING');
      }
      // Nothing more was denied: the handler's and the adapter's GetItem above.
      expect(denials).toHaveLength(2);
      expect(granted.iam.stats().requests).toBeGreaterThan(0);
    } finally {
      await granted.gateway.stop();
    }
  });

  it('decides a presigned POST and a presigned GET when they are used, at S3, under the role of the function that signed them', async () => {
    const synthesized = await loadSynthesizedRoles();
    const iam = localIamCheck({ roles: withoutAction(synthesized, FUNCTION, 's3:PutObject') });
    const port = await findFreePort();
    const s3 = await startS3({
      port,
      dataDir: testTempDir('s3-iam-'),
      buckets: [LOCAL_NAMES.uploadsBucket],
      corsOrigins: ['http://localhost:5173'],
      log: createPartLog('s3-iam', { quiet: true }),
      iam,
    });
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    iamCheckExtension(client);
    try {
      const Bucket = LOCAL_NAMES.uploadsBucket;
      const Key = 'uploads/iam-test/photo.jpg';
      // AWS signs whatever it is asked to: the refusal comes when the browser posts.
      const post = (functionName: string) =>
        runAsFunction({ functionName, iam }, () => createPresignedPost(client, { Bucket, Key, Expires: 60 }));
      const upload = async (signed: Awaited<ReturnType<typeof post>>) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(signed.fields)) form.append(name, value);
        form.append('file', new Blob([new Uint8Array(100)], { type: 'image/jpeg' }));
        return fetch(signed.url, { method: 'POST', body: form });
      };
      const refused = await upload(await post(FUNCTION));
      expect(refused.status).toBe(403);
      const body = await refused.text();
      expect(body).toContain('<Code>AccessDenied</Code>');
      expect(body).toContain(
        `/${FUNCTION} is not authorized to perform: s3:PutObject on resource: &quot;arn:aws:s3:::${Bucket}/${Key}&quot; because no identity-based policy allows the s3:PutObject action`,
      );
      // Signed by a function whose role may put uploads (its role untouched): stored.
      expect((await upload(await post('generation-prepare-references'))).status).toBe(204);

      const get = (functionName: string) =>
        runAsFunction({ functionName, iam }, () =>
          getSignedUrl(client, new GetObjectCommand({ Bucket, Key }), { expiresIn: 60 }),
        );
      // http-create-uploads may not read uploads; http-create-photo-checks may.
      const denied = await fetch(await get(FUNCTION));
      expect(denied.status).toBe(403);
      expect(await denied.text()).toContain('s3:GetObject on resource');
      expect((await fetch(await get('http-create-photo-checks'))).status).toBe(200);
    } finally {
      client.destroy();
      await s3.stop();
    }
  });
});
