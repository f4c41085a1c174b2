/**
 * A month of {@link GENERATIONS_PER_MONTH} generations on one stage (docs/costs.md): the per-generation and idle
 * figures of cost-model.ts, what grows with the month (custom metrics, storage, Cognito's users), the free tiers it
 * could use, and OpenAI's bill beside AWS's.
 */
import { megapixelFactor, canvasSize } from '../../functions/domain/headshot-variants';
import {
  DEFAULT_OPENAI_IMAGE_MODEL,
  DEFAULT_OPENAI_IMAGE_QUALITY,
  estimatedEditUsd,
  openAiImageModel,
} from '../../functions/domain/openai-image-models';
import { MAX_REFERENCE_PHOTOS } from '../../functions/domain/photos';
import { HEADSHOT_RETENTION_DAYS, UPLOAD_RETENTION_DAYS } from '../../functions/domain/retention';
import { HEADSHOTS_PER_GENERATION } from '../../functions/domain/slots';
import { ASSUMPTIONS as A, GENERATIONS_PER_MONTH } from './assumptions';
import {
  GB,
  generationBytes,
  generationLambda,
  generationLines,
  idleLines,
  MB,
  num,
  sum,
  unitPrice,
  usd,
  type CostLine,
} from './cost-model';
import type { Inventory } from './inventory';
import { FREE_TIERS, PRICES as P } from './prices';

/** The month's lines, the per-generation and idle totals first. */
export function monthLines(inventory: Inventory): CostLine[] {
  const n = GENERATIONS_PER_MONTH;
  const perGeneration = sum(generationLines(inventory));
  const headshotsGb = (n * generationBytes()) / GB;
  const uploadsGb = (n * A.photosUploaded.value * A.photoMegabytes.value * MB) / GB;
  const uploadMonths = UPLOAD_RETENTION_DAYS / 30;
  return [
    {
      part: 'per-generation AWS cost',
      arithmetic: `${num(n)} × ${usd(perGeneration, 5)}`,
      usd: n * perGeneration,
    },
    { part: 'idle cost of the stage', arithmetic: 'above', usd: sum(idleLines(inventory)) },
    {
      part: 'custom metrics',
      arithmetic: `${inventory.customMetrics} read by the alarms or published by metric filters × ${unitPrice(P.cloudwatch.customMetric.usd)} (billed in the hours they are published: all of them at this volume)`,
      usd: inventory.customMetrics * P.cloudwatch.customMetric.usd,
    },
    {
      part: 'headshots stored',
      arithmetic: `${num(n)} × ${num(generationBytes() / MB, 1)} MB = ${num(headshotsGb, 1)} GB × ${unitPrice(P.s3.storage.usd)}, the first month; each month adds as much, kept ${HEADSHOT_RETENTION_DAYS} days`,
      usd: headshotsGb * P.s3.storage.usd,
    },
    {
      part: 'photos uploaded',
      arithmetic: `${num(n)} × ${A.photosUploaded.value} × ${A.photoMegabytes.value} MB = ${num(uploadsGb)} GB for ${UPLOAD_RETENTION_DAYS} days × ${unitPrice(P.s3.storage.usd)} / GB-month`,
      usd: uploadsGb * uploadMonths * P.s3.storage.usd,
    },
    {
      part: 'Cognito on `prod` (Plus, for threat protection)',
      arithmetic: `${num(A.monthlyActiveUsers.value)} monthly active users × ${unitPrice(P.cognito.plusUser.usd)}`,
      usd: A.monthlyActiveUsers.value * P.cognito.plusUser.usd,
    },
  ];
}

/** What each always-free tier would take off the month, if the account has it to spare. */
export function freeTierLines(inventory: Inventory): CostLine[] {
  const n = GENERATIONS_PER_MONTH;
  const lambda = generationLambda(inventory);
  const scheduledRuns = inventory.schedules.reduce((total, s) => total + s.runsPerMonth, 0);
  const transitions = HEADSHOTS_PER_GENERATION * A.transitionsPerSlot.value + A.topLevelTransitions.value;
  // The month's use of each tier, in its price's unit.
  const use: Record<string, number> = {
    'Lambda compute (GB-seconds)': n * lambda.gbSeconds,
    'Lambda requests (millions)': (n * lambda.invocations + scheduledRuns) / MB,
    'Step Functions transitions (thousands)': (n * transitions) / 1000,
    'X-Ray traces (millions)': (n * A.traces.value) / MB,
    'CloudFront requests (ten thousands)': (n * A.edgeRequests.value) / 10_000,
    'CloudWatch alarm metrics (of alarms on one metric)': inventory.singleMetricAlarmMetrics,
    'CloudWatch dashboards': inventory.dashboards,
    'CloudWatch custom metrics': inventory.customMetrics,
  };
  return FREE_TIERS.map((tier) => {
    const used = use[tier.what] ?? 0;
    const covered = Math.min(used, tier.amount);
    return {
      part: tier.what,
      arithmetic: `${num(covered, 2)} of ${num(tier.amount, 2)} free × ${unitPrice(tier.price.usd)}`,
      usd: -covered * tier.price.usd,
    };
  });
}

/** OpenAI's bill for one generation at the default model and quality (its own price table, docs/openai-image-models.md). */
export function openAiPerGeneration(): { arithmetic: string; usd: number } {
  const model = openAiImageModel(DEFAULT_OPENAI_IMAGE_MODEL);
  const canvas = canvasSize(model, 'standard');
  const scale = megapixelFactor(canvas);
  const each = estimatedEditUsd(model, DEFAULT_OPENAI_IMAGE_QUALITY, MAX_REFERENCE_PHOTOS, scale);
  if (each === undefined)
    throw new Error(`No price for ${DEFAULT_OPENAI_IMAGE_MODEL} at ${DEFAULT_OPENAI_IMAGE_QUALITY}`);
  const output = model!.usdPerImage[DEFAULT_OPENAI_IMAGE_QUALITY]!;
  return {
    arithmetic:
      `${HEADSHOTS_PER_GENERATION} × (${unitPrice(output)} × ${scale} for a ${canvas.width}×${canvas.height} canvas + ` +
      `${MAX_REFERENCE_PHOTOS} references × ${unitPrice(model!.usdPerInputImage)})`,
    usd: HEADSHOTS_PER_GENERATION * each,
  };
}
