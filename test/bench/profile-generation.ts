/**
 * `node --import tsx test/bench/profile-generation.ts`: where a generation's time goes beyond the provider's latency
 * L (BENCH_LATENCY_MS, default 2000), on the local stack with the fixed-latency bench provider: after a warm-up, one
 * generation under a CPU profile (/tmp/perf-generation.cpuprofile), and its timeline from the generation item.
 * The face models run on the local stack's own threads (infrastructure/local/stand-ins/lambda/face-model-threads.ts):
 * this profile of the handlers' thread shows them only as the waits for their answers. Not part of `npm run bench`.
 */
import './env';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';
import { generationSk, userPk } from '../../functions/adapters/support/keys';
import { storageSettings } from '../../functions/config/storage';
import { startLocalStack } from '../../infrastructure/local/stack';
import { benchGeneration } from './generation';
import { benchStackPorts } from './site';

const L = Number(process.env.BENCH_LATENCY_MS ?? 2000);
const stack = await startLocalStack({
  ports: benchStackPorts(0),
  withSite: false,
  quiet: true,
  env: { LOCAL_PROVIDER_LATENCY_MS: String(L), GENERATION_MAX_CONCURRENCY: '6', IMAGE_PROVIDER: 'local' },
});
try {
  const target = {
    gatewayUrl: stack.gatewayUrl,
    userPoolId: stack.runtimeConfig.userPoolId,
    clientId: stack.runtimeConfig.userPoolClientId,
  };
  await benchGeneration(target, { latencyMs: 0, maxConcurrency: 6, provider: 'fixed' });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const figures = await benchGeneration(target, { latencyMs: L, maxConcurrency: 6, provider: 'fixed' });
  const { profile } = await session.post('Profiler.stop');
  writeFileSync('/tmp/perf-generation.cpuprofile', JSON.stringify(profile));
  console.log(JSON.stringify(figures));
  if (figures.id && figures.sub) {
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: userPk(figures.sub), SK: generationSk(figures.id) },
      }),
    );
    const created = Date.parse(String(Item?.createdAt));
    for (const [k, v] of Object.entries(Item ?? {}))
      if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v))
        console.log(k.padEnd(20), Date.parse(v) - created, 'ms');
  }
} finally {
  await stack.stop();
}
