import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkPostPolicy,
  s3ErrorXml,
  type PostForm,
} from '../../infrastructure/local/stand-ins/s3/post-policy';
import { S3RVER_CREDENTIALS } from '../../infrastructure/local/stand-ins/s3/s3rver';

/*
 * The local S3 stand-in's POST policy check, on policies signed by the SDK's own createPresignedPost with the
 * conditions the app uses (1 byte to 10 MiB, Content-Type starting with image/, the declared type fixed).
 */

const MiB = 1024 * 1024;
const secretOf = (id: string) =>
  id === S3RVER_CREDENTIALS.accessKeyId ? S3RVER_CREDENTIALS.secretAccessKey : undefined;
let fields: Record<string, string>;

beforeAll(async () => {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  ({ fields } = await createPresignedPost(client, {
    Bucket: 'uploads',
    Key: 'uploads/sub/batch/0',
    Conditions: [
      ['content-length-range', 1, 10 * MiB],
      ['starts-with', '$Content-Type', 'image/'],
    ],
    Fields: { 'Content-Type': 'image/jpeg' },
    Expires: 300,
  }));
});

const form = (patch: Partial<PostForm> & { set?: Record<string, string> } = {}): PostForm => ({
  bucket: patch.bucket ?? 'uploads',
  fields: { ...fields, ...patch.set },
  fileSize: patch.fileSize ?? 2 * MiB,
});

describe('checkPostPolicy', () => {
  it('accepts the form the policy was signed for', () => {
    expect(checkPostPolicy(form(), secretOf)).toBeNull();
    expect(checkPostPolicy(form({ fileSize: 10 * MiB }), secretOf)).toBeNull();
  });

  it('refuses a file over content-length-range with 400 EntityTooLarge, and an empty one with EntityTooSmall', () => {
    expect(checkPostPolicy(form({ fileSize: 10 * MiB + 1 }), secretOf)).toEqual({
      status: 400,
      code: 'EntityTooLarge',
      message: 'Your proposed upload exceeds the maximum allowed size',
      details: { ProposedSize: String(10 * MiB + 1), MaxSizeAllowed: String(10 * MiB) },
    });
    expect(checkPostPolicy(form({ fileSize: 0 }), secretOf)).toMatchObject({
      status: 400,
      code: 'EntityTooSmall',
    });
  });

  it('refuses another Content-Type, another key and another bucket with 403 AccessDenied naming the condition', () => {
    expect(checkPostPolicy(form({ set: { 'Content-Type': 'text/html' } }), secretOf)).toEqual({
      status: 403,
      code: 'AccessDenied',
      message:
        'Invalid according to Policy: Policy Condition failed: ["starts-with","$Content-Type","image/"]',
    });
    expect(checkPostPolicy(form({ set: { 'Content-Type': 'image/png' } }), secretOf)).toMatchObject({
      status: 403,
      message: 'Invalid according to Policy: Policy Condition failed: {"Content-Type":"image/jpeg"}',
    });
    expect(checkPostPolicy(form({ set: { key: 'uploads/other/batch/0' } }), secretOf)).toMatchObject({
      status: 403,
      code: 'AccessDenied',
    });
    expect(checkPostPolicy(form({ bucket: 'results' }), secretOf)).toMatchObject({
      status: 403,
      message: 'Invalid according to Policy: Policy Condition failed: {"bucket":"uploads"}',
    });
  });

  it('refuses a field no condition names', () => {
    expect(checkPostPolicy(form({ set: { acl: 'public-read' } }), secretOf)).toMatchObject({
      status: 403,
      message: 'Invalid according to Policy: Extra input fields: acl',
    });
    expect(checkPostPolicy(form({ set: { 'x-ignore-note': 'ok' } }), secretOf)).toBeNull();
  });

  it('refuses an expired policy, an altered policy, an unknown key and an unsigned form', () => {
    expect(checkPostPolicy(form(), secretOf, new Date(Date.now() + 301_000))).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Invalid according to Policy: Policy expired.',
    });
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString('utf8')) as {
      conditions: unknown[];
    };
    policy.conditions = policy.conditions.map((c) =>
      Array.isArray(c) && c[0] === 'content-length-range' ? ['content-length-range', 1, 100 * MiB] : c,
    );
    const altered = Buffer.from(JSON.stringify(policy)).toString('base64');
    expect(checkPostPolicy(form({ set: { Policy: altered }, fileSize: 50 * MiB }), secretOf)).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    expect(checkPostPolicy(form(), () => undefined)).toMatchObject({
      status: 403,
      code: 'InvalidAccessKeyId',
    });
    const { Policy: _p, 'X-Amz-Signature': _s, ...unsigned } = fields;
    expect(checkPostPolicy({ bucket: 'uploads', fields: unsigned, fileSize: 1 }, secretOf)).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Access Denied',
    });
  });

  it('writes S3’s XML error document', () => {
    const xml = s3ErrorXml(
      { status: 400, code: 'EntityTooLarge', message: 'a < b', details: { MaxSizeAllowed: '10' } },
      'REQ1',
    );
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooLarge</Code><Message>a &lt; b</Message><MaxSizeAllowed>10</MaxSizeAllowed><RequestId>REQ1</RequestId></Error>',
    );
  });
});
