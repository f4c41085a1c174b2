import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { marshall } from '@aws-sdk/util-dynamodb';
import { build } from 'esbuild';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { CALL_PROVIDER_MEMORY_MB } from '../../functions/catalogue';
import { normalizedKey, uploadKey } from '../../functions/domain/object-keys';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { startFakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';
import { closeServer, listen, readBody } from '../../infrastructure/local/support/http';
import { HOST } from '../../infrastructure/local/support/ports';
import { fixturePhoto } from '../helpers/generation';
import { generationItem } from '../helpers/generation-items';
import { lambdaBundleOptions } from './bundles';

const run = promisify(execFile);

/** One provider image size: the CallProvider function's peak memory while it waits for, and stores, that image. */
export interface CallMemoryFigures {
  /** What the provider answered: `1024×1024 JPEG`, … */
  image: string;
  /** The image's bytes (its base64 in OpenAI's JSON is 4/3 of that). */
  imageBytes: number;
  /** The process's peak resident set (getrusage maxrss) over cold start and the calls, MB. */
  peakRssMb: number;
  /** The resident set after the bundle was imported, before any call, MB. */
  initRssMb: number;
  /** The provider calls made in the one process (the first is the cold one). */
  calls: number;
  /** Wall time of a warm call besides the provider's own latency (reads, the count, the upload), median ms. */
  overheadMs: number;
  /** The memory the catalogue gives the function, MB. */
  memoryMb: number;
}

/**
 * The CallProvider bundle built as the CDK builds it (./bundles.ts `lambdaBundleOptions`), run in a
 * fresh `node` process as Lambda runs it, so the figure is the function's own: Node, the bundle, the SDK clients and
 * one image at a time. DynamoDB and S3 are answered by a small in-process stand-in (GetItem of the generation, the
 * call count's UpdateItem, the references' GETs, the work/ PUT), OpenAI by the local stand-in with the image given.
 */
export async function benchCallMemory(options: { calls?: number } = {}): Promise<CallMemoryFigures[]> {
  const calls = options.calls ?? 5;
  const outDir = join(REPO_ROOT, 'test-results', 'bench', 'call-memory');
  await build({
    ...lambdaBundleOptions(outDir),
    entryPoints: [{ in: join(REPO_ROOT, 'functions', 'workflow', 'call-provider.ts'), out: 'call-provider' }],
  });
  const photo = fixturePhoto('obama.jpg').bytes;
  const reference = await sharp(photo).resize(1024, 1024, { fit: 'inside' }).jpeg({ quality: 90 }).toBuffer();
  // Real-size answers: the product's 1024 px JPEG, and the largest canvas the gpt-image-2 family makes (3840 px a
  // side) as PNG, the heaviest thing a provider call can hand this function.
  const images = [
    {
      image: '1024×1024 JPEG',
      bytes: await sharp(photo).resize(1024, 1024).jpeg({ quality: 95 }).toBuffer(),
    },
    { image: '3840×3840 PNG', bytes: await sharp(photo).resize(3840, 3840).png().toBuffer() },
  ];
  const figures: CallMemoryFigures[] = [];
  for (const { image, bytes } of images) {
    const fake = await startFakeOpenAi({ latencyMs: 200 });
    fake.answer = () => ({ image: bytes });
    const aws = await startAwsStandIn(reference);
    try {
      const { stdout } = await run(
        process.execPath,
        ['--enable-source-maps', '--input-type=module', '-e', CHILD, join(outDir, 'call-provider.mjs')],
        {
          cwd: REPO_ROOT,
          env: {
            PATH: process.env.PATH,
            AWS_REGION: 'us-east-1',
            AWS_ACCESS_KEY_ID: 'bench',
            AWS_SECRET_ACCESS_KEY: 'bench',
            AWS_ENDPOINT_URL: aws.url,
            S3_FORCE_PATH_STYLE: 'true',
            TABLE_NAME: 'bench',
            UPLOADS_BUCKET: 'uploads',
            RESULTS_BUCKET: 'results',
            IMAGE_PROVIDER: 'openai',
            OPENAI_API_KEY: 'sk-bench',
            OPENAI_BASE_URL: fake.baseURL,
            POWERTOOLS_LOG_LEVEL: 'ERROR',
            BENCH_EVENTS: JSON.stringify(aws.events(calls)),
          },
          maxBuffer: 1024 * 1024,
        },
      );
      const measured = JSON.parse(stdout.trim().split('\n').pop()!) as {
        peakRssMb: number;
        initRssMb: number;
        callMs: number[];
      };
      const warm = measured.callMs.slice(1).sort((a, b) => a - b);
      figures.push({
        image,
        imageBytes: bytes.length,
        peakRssMb: measured.peakRssMb,
        initRssMb: measured.initRssMb,
        calls,
        overheadMs: Math.round((warm[Math.floor(warm.length / 2)] ?? 0) - fake.latencyMs),
        memoryMb: CALL_PROVIDER_MEMORY_MB,
      });
      if (aws.workBytes() !== bytes.length) {
        throw new Error(`work/ received ${aws.workBytes()} bytes, the provider sent ${bytes.length}`);
      }
    } finally {
      await fake.close();
      await aws.close();
    }
  }
  return figures;
}

// Runs in the child: imports the bundle (cold start), then invokes the handler once per event; prints the peak
// resident set (getrusage's maxRSS, KiB) and each call's wall time.
const CHILD = `
const mod = await import(process.argv[1]);
const initRssMb = process.memoryUsage.rss() / 1048576;
const callMs = [];
for (const event of JSON.parse(process.env.BENCH_EVENTS)) {
  const started = performance.now();
  const result = await mod.handler(event, {
    functionName: 'generation-call-provider', functionVersion: '$LATEST', memoryLimitInMB: '512',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:generation-call-provider',
    awsRequestId: crypto.randomUUID(), getRemainingTimeInMillis: () => 240000,
  });
  if (result.outcome !== 'generated') throw new Error('unexpected outcome ' + JSON.stringify(result));
  callMs.push(performance.now() - started);
}
console.log(JSON.stringify({ peakRssMb: process.resourceUsage().maxRSS / 1024, initRssMb, callMs }));
`;

/** The largest request the stand-in reads: above the 3840 px PNG the function stores. */
const MAX_REQUEST_BYTES = 256 * 1024 * 1024;

/** The few DynamoDB and S3 requests CallProvider makes, answered in process (no emulator in the measured process). */
async function startAwsStandIn(reference: Buffer) {
  const sub = '6d716c5a-579a-47d4-82f0-e1ea157c6776';
  const batch = ulid();
  const referenceKeys = [0, 1, 2].map((n) => normalizedKey(uploadKey(sub, batch, n)));
  const generations = new Map<string, Record<string, unknown>>();
  let workBytes = 0;
  const server = createServer((req, res) => {
    void readBody(req, MAX_REQUEST_BYTES).then((bytes) => {
      if (bytes === 'too-large') return void res.writeHead(413).end();
      const target = req.headers['x-amz-target'];
      if (typeof target === 'string') {
        const input = JSON.parse(bytes.toString()) as { Key: { SK: { S: string } } };
        const answer =
          target.endsWith('.GetItem') && generations.has(input.Key.SK.S)
            ? { Item: marshall(generations.get(input.Key.SK.S)!, { removeUndefinedValues: true }) }
            : {};
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(answer));
      } else if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': reference.length, etag: '"r"' });
        res.end(reference);
      } else {
        workBytes = bytes.length;
        res.writeHead(200, { etag: '"w"' }).end();
      }
    });
  });
  const url = await listen(server, 0, HOST);
  return {
    url,
    /** One event per call, each for a generation of its own (a saved slot would answer without a call). */
    events(count: number) {
      return Array.from({ length: count }, (_, i) => {
        const { id, item } = generationItem(sub, { background: 'studio', referenceKeys });
        generations.set(item.SK as string, item);
        return {
          generationId: id,
          userId: sub,
          slot: i % 6,
          style: 'professional',
          background: 'studio',
          prompt: 'A professional headshot of the person in the reference photos.',
          references: referenceKeys,
        };
      });
    },
    workBytes: () => workBytes,
    close: () => closeServer(server),
  };
}
