import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { readFileSync } from 'node:fs';

import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand, GetBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureTable, ensureUserPool } from '../../infrastructure/local/bootstrap';
import { testTempDir } from '../helpers/temp-dir';

const { env, runtimeConfig } = inject('localStack');

describe('local stack bootstrap', () => {
  it('created the single table with the design keys, and ensureTable is idempotent', async () => {
    await ensureTable({
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB!,
      region: env.AWS_REGION!,
      tableName: env.TABLE_NAME!,
    });
    const client = new DynamoDBClient({});
    const { Table } = await client.send(new DescribeTableCommand({ TableName: env.TABLE_NAME }));
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
  });

  it('created both buckets with CORS for the site origin', async () => {
    const s3 = new S3Client({ forcePathStyle: true });
    for (const bucket of [env.UPLOADS_BUCKET, env.RESULTS_BUCKET]) {
      await s3.send(new HeadBucketCommand({ Bucket: bucket }));
      const cors = await s3.send(new GetBucketCorsCommand({ Bucket: bucket }));
      expect(cors.CORSRules?.[0]?.AllowedOrigins).toContain(env.SITE_ORIGIN);
      expect(cors.CORSRules?.[0]?.AllowedMethods).toEqual(expect.arrayContaining(['POST', 'GET']));
    }
  });

  it('reuses the user pool recorded in the state file and creates a new one when there is none', async () => {
    const dir = testTempDir('pool-');
    const stateFile = join(dir, 'state.json');
    const options = { endpoint: env.COGNITO_ENDPOINT!, region: env.AWS_REGION!, stateFile, poolName: 'p' };
    const first = await ensureUserPool(options);
    const second = await ensureUserPool(options);
    expect(second).toEqual(first);
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual(first);
    expect(first.userPoolId).not.toBe(runtimeConfig.userPoolId);
  });
});
