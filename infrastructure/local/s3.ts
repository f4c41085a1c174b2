import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { HOST } from './ports';
import type { PartLog } from './log';

/** A running s3rver. */
export interface RunningS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** The access key s3rver signs with; clients of the local stack use it (it is not a secret). */
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
 * Starts s3rver (pure Node S3) on loopback with the given buckets, each created (idempotently) with CORS for the site
 * origins. Objects live under `dataDir` between runs. s3rver does not enforce presigned-POST policies: the handlers
 * re-check size and type themselves, as they must anyway.
 */
export async function startS3(options: {
  port: number;
  dataDir: string;
  buckets: readonly string[];
  corsOrigins: readonly string[];
  log: PartLog;
}): Promise<RunningS3> {
  mkdirSync(options.dataDir, { recursive: true });
  const cors = corsXml(options.corsOrigins);
  const server = new S3rver({
    address: HOST,
    port: options.port,
    silent: true,
    directory: options.dataDir,
    allowMismatchedSignatures: true,
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [cors] })),
  });
  await server.run();
  options.log.info(`buckets ${options.buckets.join(', ')} (CORS: ${options.corsOrigins.join(', ')})`);
  return { endpoint: `http://${HOST}:${options.port}`, stop: () => server.close() };
}
