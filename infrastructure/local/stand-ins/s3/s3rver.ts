import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/paths';
import { HOST, waitForPort } from '../../support/ports';
import type { PartLog } from '../../support/log';
import { stopChild } from '../../support/process';
import type { StandInOptions } from './front';
import type { IamCheck } from '../../iam/caller';
import { denialMessage } from '../../iam/errors';

/** The front's question about a presigned request: may `functionName` (its signer) make it? */
export interface PresignedQuestion {
  id: number;
  functionName: string;
  action: string;
  resource: string;
}

/** The stack's answer: AWS's message for a denial, `null` when allowed. */
export interface PresignedAnswer {
  id: number;
  message: string | null;
}

/** Answers the front's questions with `iam` (and reports each denial as the SDK calls' are). */
function answerPresigned(child: ChildProcess, iam: IamCheck): void {
  child.on('message', (question: PresignedQuestion) => {
    const { id, functionName, action, resource } = question;
    iam.check(functionName, [{ action, resource }]).then(
      (denial) => {
        if (denial) iam.onDenied?.(functionName, denial);
        child.send({ id, message: denial ? denialMessage('s3', denial) : null } satisfies PresignedAnswer);
      },
      (error: unknown) => {
        child.send({ id, message: `The local IAM check failed: ${String(error)}` } satisfies PresignedAnswer);
      },
    );
  });
}

/** A running S3 stand-in (@20minutes/s3rver behind a POST-policy front, in a child process). */
export interface RunningS3 {
  /** Path-style S3 endpoint, e.g. `http://127.0.0.1:4569`. */
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The access key pair the stand-in knows (its only account); clients of the local stack sign with it (it is not a
 * secret). A request or POST policy signed with another access key id is refused (InvalidAccessKeyId, 403), and a
 * POST policy signed with another secret too (SignatureDoesNotMatch, 403), as S3 would.
 */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * The CORS rules of a bucket as S3's XML: the site origins may PUT/POST (presigned uploads) and GET/HEAD
 * (thumbnails, downloads); the browser may read ETag. Same rules as the cloud buckets' CORS (docs/architecture.md §6).
 */
export function corsXml(origins: readonly string[]): string {
  const allowed = origins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <CORSRule>${allowed}<AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedMethod>POST</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule>
</CORSConfiguration>`;
}

/**
 * Starts the S3 stand-in on loopback with the given buckets, each created (idempotently) with CORS for the site
 * origins; objects live under `dataDir` between runs. It checks browser uploads against their presigned POST policy
 * as S3 does (signature, expiry, `content-length-range`, `starts-with`/exact fields, no extra fields: 400
 * EntityTooLarge, 403 AccessDenied, ...), answers CORS preflights from the bucket rules, refuses unknown access keys,
 * skewed request dates and expired presigned URLs, and lists past 1,000 keys with continuation tokens
 * (docs/architecture.md, local stack).
 *
 * It is its own Node process (front.ts) with OpenSSL's legacy provider: s3rver encrypts ListObjectsV2
 * continuation tokens with DES, which OpenSSL 3 offers only there; without it every listing past the first 1,000 keys
 * fails with InternalError.
 *
 * @throws {Error} when the stand-in exits before its port accepts connections (30 s).
 */
export async function startS3(options: {
  port: number;
  dataDir: string;
  buckets: readonly string[];
  corsOrigins: readonly string[];
  log: PartLog;
  /**
   * Decides presigned GETs and POST uploads signed inside a checked invocation under the signer's role, when they are
   * used, as S3 does (infrastructure/local/iam/session-token.ts); none: they are not checked.
   */
  iam?: IamCheck;
}): Promise<RunningS3> {
  mkdirSync(options.dataDir, { recursive: true });
  const cors = corsXml(options.corsOrigins);
  const standIn: StandInOptions = {
    host: HOST,
    port: options.port,
    directory: options.dataDir,
    buckets: options.buckets.map((name) => ({ name, configs: [cors] })),
    corsOrigins: [...options.corsOrigins],
    credentials: { ...S3RVER_CREDENTIALS },
  };
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      '--import',
      'tsx',
      join(REPO_ROOT, 'infrastructure/local/stand-ins/s3/front.ts'),
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_OPTIONS: '', S3_STANDIN_OPTIONS: JSON.stringify(standIn) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  if (options.iam) answerPresigned(child, options.iam);
  options.log.pipe(child.stdout);
  options.log.pipe(child.stderr, 'error');
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`the S3 stand-in exited with code ${code} before it was ready`)),
    ),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort(options.port, 30_000, 'S3 (s3rver)'), exited]);
  options.log.info(`buckets ${options.buckets.join(', ')} (CORS: ${options.corsOrigins.join(', ')})`);
  return { endpoint: `http://${HOST}:${options.port}`, process: child, stop: () => stopChild(child) };
}
