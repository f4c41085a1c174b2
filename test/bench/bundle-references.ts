import { join } from 'node:path';
import { REPO_ROOT } from '../../infrastructure/local/stack';

/*
 * What a handler's reference bundle holds (test/bench/bundles.ts): for each service client or library a handler
 * legitimately calls — AWS SDK clients, the third-party service SDKs (Stripe, OpenAI), sharp, and the face models
 * (Human on TensorFlow.js) — the import and ONE realistic call, the least a handler needs to use it. Nothing else:
 * no logging, validation or configuration, which are the handler's own weight.
 */

/** One client or library as a reference uses it. */
export interface ReferenceCall {
  /** Import statements (names unique across entries: several entries may share one reference). */
  imports: string;
  /** One statement awaited in the handler body. */
  call: string;
}

/** Human's Node build on the WebAssembly backend, imported by file path exactly as functions/adapters/vision does. */
const HUMAN = join(REPO_ROOT, 'node_modules', '@vladmandic', 'human', 'dist', 'human.node-wasm.js');

/** Keyed by the package whose presence in a handler's bundle brings the entry into its reference. */
export const REFERENCE_CALLS: Record<string, ReferenceCall> = {
  '@aws-sdk/client-dynamodb': {
    imports: "import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';",
    call: "await new DynamoDBClient({}).send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'p' } } }));",
  },
  '@aws-sdk/lib-dynamodb': {
    imports:
      "import { DynamoDBClient as DocBase } from '@aws-sdk/client-dynamodb'; import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';",
    call: "await DynamoDBDocumentClient.from(new DocBase({})).send(new GetCommand({ TableName: 't', Key: { PK: 'p' } }));",
  },
  '@aws-sdk/client-s3': {
    imports: "import { S3Client, GetObjectCommand } from '@aws-sdk/client-s3';",
    call: "await new S3Client({}).send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }));",
  },
  '@aws-sdk/s3-request-presigner': {
    imports:
      "import { S3Client as PresignS3, GetObjectCommand as PresignGet } from '@aws-sdk/client-s3'; import { getSignedUrl } from '@aws-sdk/s3-request-presigner';",
    call: "await getSignedUrl(new PresignS3({}), new PresignGet({ Bucket: 'b', Key: 'k' }));",
  },
  '@aws-sdk/s3-presigned-post': {
    imports:
      "import { S3Client as PostS3 } from '@aws-sdk/client-s3'; import { createPresignedPost } from '@aws-sdk/s3-presigned-post';",
    call: "await createPresignedPost(new PostS3({}), { Bucket: 'b', Key: 'k' });",
  },
  '@aws-sdk/client-sfn': {
    imports: "import { SFNClient, DescribeExecutionCommand } from '@aws-sdk/client-sfn';",
    call: "await new SFNClient({}).send(new DescribeExecutionCommand({ executionArn: 'a' }));",
  },
  '@aws-sdk/client-secrets-manager': {
    imports: "import { SecretsManagerClient, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';",
    call: "await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: 's' }));",
  },
  '@aws-sdk/client-sesv2': {
    imports: "import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';",
    call: "await new SESv2Client({}).send(new SendEmailCommand({ FromEmailAddress: 'a@b.c', Destination: { ToAddresses: ['d@e.f'] }, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 't' } } } } }));",
  },
  '@aws-sdk/client-firehose': {
    imports: "import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';",
    call: "await new FirehoseClient({}).send(new PutRecordBatchCommand({ DeliveryStreamName: 's', Records: [{ Data: new Uint8Array(1) }] }));",
  },
  '@aws-sdk/client-cognito-identity-provider': {
    imports:
      "import { CognitoIdentityProviderClient, AdminDeleteUserCommand } from '@aws-sdk/client-cognito-identity-provider';",
    call: "await new CognitoIdentityProviderClient({}).send(new AdminDeleteUserCommand({ UserPoolId: 'p', Username: 'u' }));",
  },
  sharp: {
    imports: "import sharp from 'sharp';",
    call: 'await sharp({ create: { width: 1, height: 1, channels: 3, background: "#fff" } }).png().toBuffer();',
  },
  stripe: {
    imports: "import Stripe from 'stripe';",
    call: "await new Stripe('sk_test_reference').checkout.sessions.retrieve('cs_test_reference');",
  },
  openai: {
    imports: "import OpenAI, { toFile } from 'openai';",
    call: "await new OpenAI({ apiKey: 'sk-reference' }).images.edit({ model: 'gpt-image-1.5', prompt: 'p', image: await toFile(new Uint8Array(1), 'r.jpg', { type: 'image/jpeg' }) });",
  },
  '@vladmandic/human': {
    imports: `import { Human } from ${JSON.stringify(HUMAN)};`,
    call: "{ const human = new Human({ backend: 'wasm', modelBasePath: 'file:///var/task/vision/models/', wasmPath: 'file:///var/task/vision/wasm/', warmup: 'none' }); await human.load(); const pixels = human.tf.zeros([1, 64, 64, 3]); await human.detect(pixels); human.tf.dispose(pixels); }",
  },
};

/** The package an esbuild input path belongs to (`node_modules/@aws-sdk/client-s3/…` → `@aws-sdk/client-s3`). */
export function packageOf(input: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/**
 * The entries of {@link REFERENCE_CALLS} a bundle needs: each package among its inputs, and `sharp` when it is
 * statically imported (it is external: it comes from the layer).
 */
export function referenceClientsOf(
  inputs: string[],
  imports: { path: string; external?: boolean; kind: string }[],
): string[] {
  const found = new Set<string>();
  for (const input of inputs) {
    const name = packageOf(input);
    if (name && REFERENCE_CALLS[name]) found.add(name);
  }
  if (imports.some((i) => i.external && i.path === 'sharp' && i.kind === 'import-statement'))
    found.add('sharp');
  return [...found].sort();
}

/** The source of a reference handler that imports `clients` and makes one call with each. */
export function referenceSource(clients: readonly string[]): string {
  const parts = clients.map((c) => REFERENCE_CALLS[c]!);
  return [
    ...parts.map((p) => p.imports),
    'export const handler = async () => {',
    ...parts.map((p) => `  ${p.call}`),
    '  return { statusCode: 200, body: "{}" };',
    '};',
    '',
  ].join('\n');
}
