import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The checks S3 makes on a browser-based upload (POST Object with a Signature V4 POST policy), for the local S3
 * stand-in, whose own POST handler ignores the policy. The rules are S3's, as its documentation of POST policies
 * states them: the policy must be signed with the access key's secret, must not have expired, every condition must
 * hold, and every form field except `policy`, `x-amz-signature`, `file` and `x-ignore-*` must be named by a condition.
 * Errors carry S3's codes, statuses and messages, so a client sees locally what it would see from S3.
 */

/** A refused upload: the S3 error document's fields and the HTTP status. */
export interface S3PostError {
  status: 400 | 403;
  code: string;
  message: string;
  /** Extra elements of S3's error document (e.g. `ProposedSize`, `MaxSizeAllowed`). */
  details?: Record<string, string>;
}

/** What the stand-in read from the multipart form. */
export interface PostForm {
  /** The bucket named by the request path. */
  bucket: string;
  /** Every form field except the file, by name as sent. */
  fields: Record<string, string>;
  /** Size of the `file` part in bytes. */
  fileSize: number;
}

type Condition =
  | { kind: 'eq'; field: string; value: string; raw: unknown }
  | { kind: 'starts-with'; field: string; value: string; raw: unknown }
  | { kind: 'content-length-range'; min: number; max: number; raw: unknown };

/** Fields S3 exempts from "every field must be named by a condition". */
function exempt(name: string): boolean {
  return name === 'policy' || name === 'x-amz-signature' || name === 'file' || name.startsWith('x-ignore-');
}

const denied = (message: string, details?: Record<string, string>): S3PostError => ({
  status: 403,
  code: 'AccessDenied',
  message,
  ...(details ? { details } : {}),
});
const invalidPolicy = (reason: string): S3PostError => ({
  status: 400,
  code: 'InvalidPolicyDocument',
  message: `Invalid Policy: ${reason}`,
});

function parseConditions(list: unknown[]): Condition[] | S3PostError {
  const out: Condition[] = [];
  for (const raw of list) {
    if (Array.isArray(raw)) {
      const [op, a, b] = raw as unknown[];
      if (op === 'content-length-range') {
        const min = Number(a);
        const max = Number(b);
        if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min) {
          return invalidPolicy('Invalid content-length-range condition.');
        }
        out.push({ kind: 'content-length-range', min, max, raw });
      } else if ((op === 'eq' || op === 'starts-with') && typeof a === 'string' && typeof b === 'string') {
        if (!a.startsWith('$')) return invalidPolicy(`Invalid condition field name: ${a}`);
        out.push({ kind: op, field: a.slice(1).toLowerCase(), value: b, raw });
      } else {
        return invalidPolicy(`Invalid condition: ${JSON.stringify(raw)}`);
      }
    } else if (raw && typeof raw === 'object') {
      const entries = Object.entries(raw as Record<string, unknown>);
      if (entries.length !== 1 || typeof entries[0]![1] !== 'string') {
        return invalidPolicy(`Invalid condition: ${JSON.stringify(raw)}`);
      }
      const [field, value] = entries[0] as [string, string];
      out.push({ kind: 'eq', field: field.toLowerCase(), value, raw });
    } else {
      return invalidPolicy(`Invalid condition: ${JSON.stringify(raw)}`);
    }
  }
  return out;
}

/** The Signature V4 signing key for `date` (`yyyymmdd`), region and service. */
function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const step = (key: string | Buffer, data: string) =>
    createHmac('sha256', key).update(data, 'utf8').digest();
  return step(step(step(step(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/**
 * Checks a POST upload against its policy the way S3 does.
 *
 * @param form the bucket, the form fields and the file size (bytes)
 * @param secretOf the secret access key of an access key id, `undefined` for an unknown key
 * @param now the server's clock (policy expiry)
 * @returns `null` when S3 would store the object, else the error S3 answers: 403 `AccessDenied` (no policy, expired
 *   policy, a failed condition, an extra field), 403 `InvalidAccessKeyId`, 403 `SignatureDoesNotMatch`, 400
 *   `EntityTooLarge` / `EntityTooSmall` (`content-length-range`), 400 `InvalidPolicyDocument`, 400 `InvalidArgument`
 *   (a signed form without credential fields)
 */
export function checkPostPolicy(
  form: PostForm,
  secretOf: (accessKeyId: string) => string | undefined,
  now: Date = new Date(),
): S3PostError | null {
  const fields = new Map(Object.entries(form.fields).map(([k, v]) => [k.toLowerCase(), v]));
  const policyB64 = fields.get('policy');
  const signature = fields.get('x-amz-signature');
  // An unsigned POST is anonymous: the buckets are private.
  if (policyB64 === undefined || signature === undefined) return denied('Access Denied');

  const credential = fields.get('x-amz-credential');
  if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256' || !credential || !fields.get('x-amz-date')) {
    return {
      status: 400,
      code: 'InvalidArgument',
      message:
        'POST requires X-Amz-Algorithm AWS4-HMAC-SHA256, X-Amz-Credential and X-Amz-Date with X-Amz-Signature',
    };
  }
  const [accessKeyId = '', date = '', region = '', service = ''] = credential.split('/');
  const secret = secretOf(accessKeyId);
  if (secret === undefined) {
    return {
      status: 403,
      code: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
      details: { AWSAccessKeyId: accessKeyId },
    };
  }
  const expected = createHmac('sha256', signingKey(secret, date, region, service))
    .update(policyB64)
    .digest();
  const provided = Buffer.from(signature, 'hex');
  if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      details: { AWSAccessKeyId: accessKeyId, StringToSign: policyB64 },
    };
  }

  let policy: { expiration?: unknown; conditions?: unknown };
  try {
    policy = JSON.parse(Buffer.from(policyB64, 'base64').toString('utf8')) as typeof policy;
  } catch {
    return invalidPolicy('Policy could not be parsed as JSON.');
  }
  const expiration = typeof policy.expiration === 'string' ? Date.parse(policy.expiration) : NaN;
  if (Number.isNaN(expiration)) return invalidPolicy('Policy missing expiration.');
  if (!Array.isArray(policy.conditions)) return invalidPolicy('Policy missing conditions.');
  if (now.getTime() > expiration) return denied('Invalid according to Policy: Policy expired.');
  const conditions = parseConditions(policy.conditions);
  if (!Array.isArray(conditions)) return conditions;

  const valueOf = (field: string) => (field === 'bucket' ? form.bucket : fields.get(field));
  for (const c of conditions) {
    if (c.kind === 'content-length-range') {
      if (form.fileSize > c.max) {
        return {
          status: 400,
          code: 'EntityTooLarge',
          message: 'Your proposed upload exceeds the maximum allowed size',
          details: { ProposedSize: String(form.fileSize), MaxSizeAllowed: String(c.max) },
        };
      }
      if (form.fileSize < c.min) {
        return {
          status: 400,
          code: 'EntityTooSmall',
          message: 'Your proposed upload is smaller than the minimum allowed size',
          details: { ProposedSize: String(form.fileSize), MinSizeAllowed: String(c.min) },
        };
      }
      continue;
    }
    const value = valueOf(c.field);
    const holds = value !== undefined && (c.kind === 'eq' ? value === c.value : value.startsWith(c.value));
    if (!holds) {
      return denied(`Invalid according to Policy: Policy Condition failed: ${JSON.stringify(c.raw)}`);
    }
  }

  const named = new Set(conditions.flatMap((c) => (c.kind === 'content-length-range' ? [] : [c.field])));
  const extra = [...fields.keys()].filter((name) => !exempt(name) && !named.has(name));
  if (extra.length > 0) return denied(`Invalid according to Policy: Extra input fields: ${extra.join(', ')}`);
  return null;
}

/** S3's XML error document for a refused upload. */
export function s3ErrorXml(error: S3PostError, requestId: string): string {
  const escape = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const details = Object.entries(error.details ?? {})
    .map(([k, v]) => `<${k}>${escape(v)}</${k}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${escape(error.message)}</Message>${details}<RequestId>${requestId}</RequestId></Error>`;
}
