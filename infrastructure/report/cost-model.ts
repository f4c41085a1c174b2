/**
 * The arithmetic of docs/costs.md: an idle stage, one generation, a month of {@link GENERATIONS_PER_MONTH}, from the
 * template's inventory (inventory.ts), the price list (prices.ts), the assumptions (assumptions.ts) and the code's
 * constants (slots, canvas, variants, retention, provider concurrency, OpenAI's prices). Each line keeps the
 * arithmetic it was computed by, as the report prints it. The month and what is billed apart (OpenAI) are in
 * cost-month.ts.
 */
import { DEFAULT_OPENAI_MAX_CONCURRENCY } from '../../functions/config/image-provider';
import { THUMBNAIL_SIDE } from '../../functions/domain/headshot-images';
import {
  canvasSize,
  HEADSHOT_VARIANTS,
  planVariants,
  VARIANT_CONTENT_TYPES,
} from '../../functions/domain/headshot-variants';
import { DEFAULT_OPENAI_IMAGE_MODEL, openAiImageModel } from '../../functions/domain/openai-image-models';
import { HEADSHOTS_PER_GENERATION } from '../../functions/domain/slots';
import { ASSUMPTIONS as A, BYTES_PER_PIXEL } from './assumptions';
import type { Inventory } from './inventory';
import { PRICES as P } from './prices';

/** One priced line: what, how it was computed, US dollars. */
export interface CostLine {
  part: string;
  arithmetic: string;
  usd: number;
}

/** `$1,234.56` (`−$1.50` below zero) with `decimals` decimals. */
export const usd = (value: number, decimals = 2) =>
  `${value < 0 ? '−' : ''}$${Math.abs(value).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  })}`;
/** A unit price as the price list writes it: every decimal it has, at least two (`$0.60`, `$0.0000133334`). */
export const unitPrice = (value: number) =>
  usd(value, Math.max(2, (String(value).split('.')[1] ?? '').length));
/** A count with thousands separators, at most `decimals` decimals. */
export const num = (value: number, decimals = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: decimals });

/** Bytes in a (decimal) MB and GB, as AWS bills storage and transfer. */
export const MB = 1_000_000;
export const GB = 1_000_000_000;
/** The total of `lines`, US dollars. */
export const sum = (lines: readonly CostLine[]) => lines.reduce((total, line) => total + line.usd, 0);

/** The memory of the function the catalogue names `id`, in GB; a missing one means the model is out of date. */
function memoryGb(inventory: Inventory, id: string): number {
  const fn = inventory.functions.find((f) => f.id === id);
  if (!fn) {
    throw new Error(
      `The cost model names ${id}, which the template lacks: update infrastructure/report/cost-model.ts`,
    );
  }
  return fn.memoryMb / 1024;
}

/** The files one headshot is stored as, with their bytes (pixels from the code, bytes per pixel measured). */
export function headshotFiles(): { file: string; pixels: number; bytes: number }[] {
  const canvas = canvasSize(openAiImageModel(DEFAULT_OPENAI_IMAGE_MODEL), 'standard');
  const plan = planVariants(canvas, undefined);
  const files: { name: string; width: number; height: number; type: keyof typeof BYTES_PER_PIXEL }[] = [
    ...HEADSHOT_VARIANTS.map((variant) => ({
      name: variant as string,
      ...plan[variant].size,
      type: VARIANT_CONTENT_TYPES[variant],
    })),
    { name: 'thumbnail', width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, type: 'image/webp' },
  ];
  return files.map(({ name, width, height, type }) => ({
    file: `${name} ${width}×${height} ${type.slice('image/'.length).toUpperCase()}`,
    pixels: width * height,
    bytes: width * height * BYTES_PER_PIXEL[type].value,
  }));
}

/** Bytes of headshots one generation stores (every file of each of its headshots). */
export const generationBytes = () =>
  HEADSHOTS_PER_GENERATION * headshotFiles().reduce((total, f) => total + f.bytes, 0);

/** The idle month of a stage: what is billed with no customer at all. */
export function idleLines(inventory: Inventory): CostLine[] {
  const lines: CostLine[] = inventory.webAcls.map((acl) => ({
    part:
      acl.scope === 'CLOUDFRONT' ? 'WAF web ACL of CloudFront' : `WAF web ACL (${acl.scope.toLowerCase()})`,
    arithmetic: `${unitPrice(P.waf.webAcl.usd)} + ${acl.rules} rules × ${unitPrice(P.waf.rule.usd)}`,
    usd: P.waf.webAcl.usd + acl.rules * P.waf.rule.usd,
  }));
  lines.push(
    {
      part: 'CloudWatch alarms',
      arithmetic: `${inventory.alarms} alarms reading ${inventory.alarmMetrics} metrics × ${unitPrice(P.cloudwatch.alarmMetric.usd)}`,
      usd: inventory.alarmMetrics * P.cloudwatch.alarmMetric.usd,
    },
    {
      part: 'CloudWatch dashboards',
      arithmetic: `${inventory.dashboards} × ${unitPrice(P.cloudwatch.dashboard.usd)}`,
      usd: inventory.dashboards * P.cloudwatch.dashboard.usd,
    },
    {
      part: 'Secrets Manager',
      arithmetic: `${inventory.secrets} secrets × ${unitPrice(P.secretsManager.secret.usd)}`,
      usd: inventory.secrets * P.secretsManager.secret.usd,
    },
    {
      part: 'KMS',
      arithmetic: `${inventory.kmsKeys} customer-managed keys × ${unitPrice(P.kms.key.usd)}`,
      usd: inventory.kmsKeys * P.kms.key.usd,
    },
  );
  for (const schedule of inventory.schedules) {
    const gb = schedule.target ? memoryGb(inventory, schedule.target) : 0;
    const each =
      gb * A.scheduledRunSeconds.value * P.lambda.compute.usd +
      (schedule.target ? P.lambda.requests.usd / MB : 0) +
      P.scheduler.invocations.usd / MB;
    lines.push({
      part: `schedule ${schedule.target ?? schedule.id} (${schedule.expression})`,
      arithmetic: `${num(schedule.runsPerMonth)} runs × (${num(gb * 1024)} MB × ${A.scheduledRunSeconds.value} s, one invocation, one schedule run)`,
      usd: schedule.runsPerMonth * each,
    });
  }
  return lines;
}

/** Whole provider-call rounds of a generation at the default provider concurrency (its slots, so many at a time). */
const rounds = () => Math.ceil(HEADSHOTS_PER_GENERATION / DEFAULT_OPENAI_MAX_CONCURRENCY);
/** Seconds a generation takes with nobody else in line: references, call rounds, the last finish. */
export const generationSeconds = () =>
  A.prepareReferencesSeconds.value + rounds() * A.providerCallSeconds.value + A.finishSeconds.value;
/** API requests of one generation: the wizard's polls while it runs, and the others. */
export const apiRequests = () =>
  Math.ceil(generationSeconds() / A.pollSeconds.value) + A.otherApiRequests.value + A.photoChecks.value;

/** Lambda work of one generation: [function id, invocations, seconds each]. */
function lambdaWork(): [string, number, number][] {
  const slots = HEADSHOTS_PER_GENERATION;
  const short = A.shortTaskSeconds.value;
  return [
    ['GenerationCallProvider', slots, A.providerCallSeconds.value],
    ['GenerationFinishHeadshot', slots, A.finishSeconds.value],
    ['GenerationPrepareReferences', 1, A.prepareReferencesSeconds.value],
    ['HttpCreatePhotoChecks', A.photoChecks.value, A.photoCheckSeconds.value],
    ['GenerationBuildPrompt', 1, short],
    ['GenerationEnterProviderLine', slots, short],
    ['GenerationReleaseProviderSlot', slots, short],
    ['ProviderDispatcher', slots + 1, short],
    ['GenerationFinalize', 1, short],
    ['GenerationNotifyCustomer', 1, short],
    ['HttpGetGeneration', apiRequests() - A.photoChecks.value, A.apiSeconds.value],
  ];
}

/** GB-seconds and invocations of one generation's Lambda work. */
export function generationLambda(inventory: Inventory): { gbSeconds: number; invocations: number } {
  const work = lambdaWork();
  return {
    gbSeconds: work.reduce((total, [id, n, s]) => total + n * memoryGb(inventory, id) * s, 0),
    invocations: work.reduce((total, [, n]) => total + n, 0),
  };
}

/** The Lambda lines of one generation: the provider call, the finish, and the rest together. */
function lambdaLines(inventory: Inventory): CostLine[] {
  const gbS = (id: string, n: number, s: number) => n * memoryGb(inventory, id) * s;
  const line = (part: string, [id, n, s]: [string, number, number]): CostLine => ({
    part,
    arithmetic: `${n} × ${num(memoryGb(inventory, id), 3)} GB × ${s} s = ${num(gbS(id, n, s), 1)} GB-s`,
    usd: gbS(id, n, s) * P.lambda.compute.usd,
  });
  const [call, finish, ...rest] = lambdaWork();
  const restGbS = rest.reduce((total, [id, n, s]) => total + gbS(id, n, s), 0);
  const { invocations } = generationLambda(inventory);
  return [
    line('provider calls (GenerationCallProvider)', call!),
    line('likeness and encodes (GenerationFinishHeadshot)', finish!),
    {
      part: 'other functions',
      arithmetic: `references, photo checks, workflow and queue tasks, ${apiRequests() - A.photoChecks.value} API calls: ${num(restGbS, 1)} GB-s`,
      usd: restGbS * P.lambda.compute.usd,
    },
    {
      part: 'Lambda requests',
      arithmetic: `${invocations} invocations × ${unitPrice(P.lambda.requests.usd)} / million`,
      usd: (invocations * P.lambda.requests.usd) / MB,
    },
  ];
}

/** One generation of {@link HEADSHOTS_PER_GENERATION} headshots with nobody else in line. */
export function generationLines(inventory: Inventory): CostLine[] {
  const slots = HEADSHOTS_PER_GENERATION;
  const transitions = slots * A.transitionsPerSlot.value + A.topLevelTransitions.value;
  const puts = A.photosUploaded.value + slots * (HEADSHOT_VARIANTS.length + 2);
  const perMillion = (n: number, price: number) => (n * price) / MB;
  return [
    ...lambdaLines(inventory),
    {
      part: 'Step Functions',
      arithmetic: `${slots} slots × ${A.transitionsPerSlot.value} + ${A.topLevelTransitions.value} = ${transitions} transitions × ${unitPrice(P.stepFunctions.transitions.usd)} / 1,000`,
      usd: (transitions * P.stepFunctions.transitions.usd) / 1000,
    },
    {
      part: 'DynamoDB',
      arithmetic: `${A.dynamoWrites.value} write units × ${unitPrice(P.dynamodb.writes.usd)} / million + ${A.dynamoReads.value} read units × ${unitPrice(P.dynamodb.reads.usd)} / million`,
      usd:
        perMillion(A.dynamoWrites.value, P.dynamodb.writes.usd) +
        perMillion(A.dynamoReads.value, P.dynamodb.reads.usd),
    },
    {
      part: 'SQS',
      arithmetic: `${slots} slots × ${A.sqsRequestsPerSlot.value} requests × ${unitPrice(P.sqs.requests.usd)} / million`,
      usd: perMillion(slots * A.sqsRequestsPerSlot.value, P.sqs.requests.usd),
    },
    {
      part: 'S3 requests',
      arithmetic: `${puts} PUTs (${A.photosUploaded.value} photos; per headshot its ${HEADSHOT_VARIANTS.length} files, thumbnail and work image) × ${unitPrice(P.s3.puts.usd)} / 1,000 + ${A.s3Gets.value} GETs × ${unitPrice(P.s3.gets.usd)} / 1,000`,
      usd: (puts * P.s3.puts.usd + A.s3Gets.value * P.s3.gets.usd) / 1000,
    },
    {
      part: 'X-Ray',
      arithmetic: `${A.traces.value} traces × ${unitPrice(P.xray.traces.usd)} / million`,
      usd: perMillion(A.traces.value, P.xray.traces.usd),
    },
    {
      part: 'CloudWatch Logs',
      arithmetic: `${A.logKilobytes.value} KB × ${unitPrice(P.cloudwatch.logsIngested.usd)} / GB`,
      usd: ((A.logKilobytes.value * 1000) / GB) * P.cloudwatch.logsIngested.usd,
    },
    {
      part: 'SES, Secrets Manager',
      arithmetic: `${A.emails.value} e-mail × ${unitPrice(P.ses.emails.usd)} / 1,000; ${A.secretReads.value} calls × ${unitPrice(P.secretsManager.calls.usd)} / 10,000`,
      usd:
        (A.emails.value * P.ses.emails.usd) / 1000 +
        (A.secretReads.value * P.secretsManager.calls.usd) / 10_000,
    },
    {
      part: 'API Gateway, WAF, CloudFront',
      arithmetic: `${apiRequests()} × ${unitPrice(P.apiGateway.requests.usd)} / million; ${A.edgeRequests.value} × (${unitPrice(P.waf.requests.usd)} / million + ${unitPrice(P.cloudfront.requests.usd)} / 10,000)`,
      usd:
        perMillion(apiRequests(), P.apiGateway.requests.usd) +
        perMillion(A.edgeRequests.value, P.waf.requests.usd) +
        (A.edgeRequests.value * P.cloudfront.requests.usd) / 10_000,
    },
    {
      part: 'Firehose',
      arithmetic: `${A.analyticsRecords.value} records × 5 KB × ${unitPrice(P.firehose.ingested.usd)} / GB`,
      usd: ((A.analyticsRecords.value * 5000) / GB) * P.firehose.ingested.usd,
    },
  ];
}
