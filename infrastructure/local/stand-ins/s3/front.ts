import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { holdIdleConnections } from '../../support/http';
import { functionOfSessionToken } from '../../iam/session-token';
import { checkPostPolicy, s3ErrorXml, type S3PostError } from './post-policy';
import type { PresignedAnswer, PresignedQuestion } from './s3rver';
import { deleteOnlyTheObject, type FilesystemStoreClass } from './store';

/**
 * The local S3 stand-in's own process (started by `startS3` in s3.ts, with OpenSSL's legacy provider):
 * @20minutes/s3rver on an internal loopback port, behind a front on the public port that passes every request through
 * unchanged, except browser uploads (POST Object), which it first checks against their POST policy as S3 does
 * (post-policy.ts), and presigned requests signed by a local function (a POST, a GET or HEAD with a presigned
 * URL), which it has the stack's IAM check decide under the signer's role, over the IPC channel (s3rver.ts,
 * infrastructure/local/iam/session-token.ts). s3rver stores what passes.
 *
 * Options come as JSON in `S3_STANDIN_OPTIONS` ({@link StandInOptions}).
 */

/** Options of the stand-in process. */
export interface StandInOptions {
  host: string;
  /** The public port (the front). */
  port: number;
  /** Where s3rver keeps buckets and objects. */
  directory: string;
  /** Buckets created at start, each with its configuration documents (CORS XML). */
  buckets: { name: string; configs: string[] }[];
  /** Origins the buckets' CORS rules allow: refused uploads carry the same CORS headers as stored ones. */
  corsOrigins: string[];
  /** The one access key the stand-in knows. */
  credentials: { accessKeyId: string; secretAccessKey: string };
}

/** The part of s3rver's API used here (it ships no types). */
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  /** The HTTP server `run()` started. */
  httpServer: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;

/** A POST form larger than this (bytes) is refused before it is parsed; S3's own limit is 5 GB. */
const MAX_FORM_BYTES = 64 * 1024 * 1024;

const options = JSON.parse(process.env.S3_STANDIN_OPTIONS ?? '{}') as StandInOptions;
const load = createRequire(import.meta.url);
const S3rver = load('@20minutes/s3rver') as S3rverClass;
// Before any request: a DELETE must not take a concurrent PUT's object with it (store.ts).
deleteOnlyTheObject(load('@20minutes/s3rver/lib/stores/filesystem') as FilesystemStoreClass);
const s3rver = new S3rver({
  address: options.host,
  port: 0,
  silent: true,
  directory: options.directory,
  // Its Signature V4 check rebuilds the canonical URI of a bucket-level request without the trailing slash the v3
  // SDK signs (`GET /bucket/?list-type=2`), so ListObjectsV2 and DeleteObjects would fail with SignatureDoesNotMatch:
  // accept well-formed signatures whose value differs. Access key, date skew and presigned URL expiry are checked.
  allowMismatchedSignatures: true,
  vhostBuckets: false,
  configureBuckets: options.buckets,
});
const inner = await s3rver.run();
// The front's keep-alive agent reuses sockets to s3rver: s3rver must not close them first (see holdIdleConnections).
holdIdleConnections(s3rver.httpServer);
const agent = new Agent({ keepAlive: true });

/** Passes a request to s3rver and its answer back; `body` replaces the request's own (already read) body. */
function forward(req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
  const headers = { ...req.headers };
  if (body) {
    delete headers['transfer-encoding'];
    headers['content-length'] = String(body.length);
  }
  const upstream = httpRequest(
    { host: options.host, port: inner.port, method: req.method, path: req.url, headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502);
    res.end(String(error));
  });
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

/** Reads a request body up to `limit` bytes; `null` when it is larger. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function refuse(req: IncomingMessage, res: ServerResponse, error: S3PostError): void {
  const origin = req.headers.origin;
  const cors: Record<string, string> =
    origin && options.corsOrigins.includes(origin)
      ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': 'ETag', Vary: 'Origin' }
      : {};
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const body = s3ErrorXml(error, requestId);
  // S3 answers before it has read the whole upload, so it closes the connection.
  res.writeHead(error.status, {
    'Content-Type': 'application/xml',
    'Content-Length': Buffer.byteLength(body),
    'x-amz-request-id': requestId,
    Connection: 'close',
    ...cors,
  });
  res.end(body);
}

const questions = new Map<number, (message: string | null) => void>();
let lastQuestion = 0;
process.on('message', (answer: PresignedAnswer) => {
  questions.get(answer.id)?.(answer.message);
  questions.delete(answer.id);
});

/**
 * Whether the function a presigned request's session token names may make it: AWS's message for a denial, `null`
 * when allowed or when nobody is asked (no token of a local function, or no IAM check in the stack).
 */
function presignedDenial(
  token: string | null | undefined,
  action: string,
  resource: string,
): Promise<string | null> {
  const functionName = functionOfSessionToken(token);
  if (!functionName || !process.send) return Promise.resolve(null);
  const id = ++lastQuestion;
  return new Promise((resolve) => {
    questions.set(id, resolve);
    process.send!({ id, functionName, action, resource } satisfies PresignedQuestion);
  });
}

const accessDenied = (message: string): S3PostError => ({ status: 403, code: 'AccessDenied', message });

/** POST Object: read the form, check its policy, then let s3rver store it. */
async function handleUpload(req: IncomingMessage, res: ServerResponse, bucket: string): Promise<void> {
  const body = await readBody(req, MAX_FORM_BYTES);
  if (!body) {
    refuse(req, res, {
      status: 400,
      code: 'EntityTooLarge',
      message: 'Your proposed upload exceeds the maximum allowed size',
      details: { MaxSizeAllowed: String(MAX_FORM_BYTES) },
    });
    return;
  }
  // The platform's own multipart parser (undici, via the Fetch API's Request).
  const form = await new Request('http://stand-in/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: new Uint8Array(body),
  })
    .formData()
    .catch(() => null);
  const file = form?.get('file');
  if (!form || !(file instanceof Blob)) {
    forward(req, res, body); // s3rver answers a malformed form with S3's error.
    return;
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === 'string') fields[name] = value;
  const error = checkPostPolicy({ bucket, fields, fileSize: file.size }, (id) =>
    id === options.credentials.accessKeyId ? options.credentials.secretAccessKey : undefined,
  );
  if (error) return refuse(req, res, error);
  const field = (name: string) => Object.entries(fields).find(([k]) => k.toLowerCase() === name)?.[1];
  const denial = await presignedDenial(
    field('x-amz-security-token'),
    's3:PutObject',
    `arn:aws:s3:::${bucket}/${field('key') ?? ''}`,
  );
  if (denial) refuse(req, res, accessDenied(denial));
  else forward(req, res, body);
}

/** A GET or HEAD with a presigned URL: its signer's role decides, then s3rver answers. */
async function handlePresignedGet(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [bucket = '', ...key] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const denial = await presignedDenial(
    url.searchParams.get('X-Amz-Security-Token'),
    's3:GetObject',
    `arn:aws:s3:::${bucket}/${key.join('/')}`,
  );
  if (!denial) return forward(req, res);
  if (req.method === 'HEAD') {
    res.writeHead(403, { 'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase() });
    res.end();
  } else refuse(req, res, accessDenied(denial));
}

const front = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const segments = path.split('/').filter(Boolean);
  const upload =
    req.method === 'POST' &&
    segments.length === 1 &&
    (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const presignedGet =
    (req.method === 'GET' || req.method === 'HEAD') && url.searchParams.has('X-Amz-Security-Token');
  const handling = upload
    ? handleUpload(req, res, decodeURIComponent(segments[0]!))
    : presignedGet
      ? handlePresignedGet(req, res, url)
      : (forward(req, res), Promise.resolve());
  handling.catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
holdIdleConnections(front);
front.listen(options.port, options.host);
