/**
 * docs/costs.md, written from the synthesized stack (`npm run docs:costs`, costs-cli.ts): the inventory, the prices,
 * the assumptions and every line of the idle month, one generation and a month of them, with its arithmetic.
 * test/infrastructure/costs-doc.test.ts checks the committed file is what this writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { HEADSHOTS_PER_GENERATION } from '../../functions/domain/slots';
import { REPO_ROOT } from '../constructs/naming';
import { ASSUMPTIONS, BYTES_PER_PIXEL, GENERATIONS_PER_MONTH, type Assumption } from './assumptions';
import {
  generationBytes,
  generationLines,
  headshotFiles,
  idleLines,
  MB,
  num,
  sum,
  unitPrice,
  usd,
  type CostLine,
} from './cost-model';
import { freeTierLines, monthLines, openAiPerGeneration } from './cost-month';
import { inventoryOf, type Inventory } from './inventory';
import { PRICES, SERVICE_NAMES, type Price } from './prices';
import { synthesizeDeployment } from './synthesize';

/** Where the document is written. */
export const COSTS_DOC = join(REPO_ROOT, 'docs', 'costs.md');
/** The deployment priced: production, in the region of the price list. */
const STAGE = 'prod';
const REGION = 'us-east-1';

const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly (string | number)[])[]) =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');
const lineTable = (head: string, lines: readonly CostLine[], decimals: number, total?: string) =>
  table(
    ['part', 'arithmetic', head],
    [
      ...lines.map((l) => [l.part, l.arithmetic, usd(l.usd, decimals)]),
      ...(total ? [[`**${total}**`, '', `**${usd(sum(lines), decimals)}**`]] : []),
    ],
  );

/** The inventory as a table: what the stack holds and how each is billed. */
function inventoryTable(inv: Inventory): string {
  const byMemory = new Map<number, number>();
  for (const f of inv.functions) byMemory.set(f.memoryMb, (byMemory.get(f.memoryMb) ?? 0) + 1);
  const memories = [...byMemory]
    .sort(([a], [b]) => b - a)
    .map(([mb, n]) => `${num(mb)} MB × ${n}`)
    .join(', ');
  const arm = inv.functions.filter((f) => f.architecture === 'arm64').length;
  return table(
    ['resource', 'count', 'billed'],
    [
      [
        'Lambda functions',
        `${inv.functions.length} (${arm} arm64; ${memories})`,
        'per GB-second and request',
      ],
      [
        'CloudWatch alarms',
        `${inv.alarms}, reading ${inv.alarmMetrics} metrics (${inv.singleMetricAlarmMetrics} alarms on one metric; the others metric math)`,
        'per metric read, per month',
      ],
      [
        'custom metrics',
        `${inv.customMetrics} (read by the alarms, or published by metric filters)`,
        'per month',
      ],
      ['CloudWatch dashboards', inv.dashboards, 'per month'],
      ['Secrets Manager secrets', inv.secrets, 'per month, per 10,000 calls'],
      ['customer-managed KMS keys', inv.kmsKeys, 'per month'],
      [
        'WAF web ACLs',
        `${inv.webAcls.length}: ${inv.webAcls.map((a) => `${a.scope} with ${a.rules} rules`).join(', ')}`,
        'per month, per rule, per million requests',
      ],
      [
        'schedules',
        `${inv.schedules.length}: ${inv.schedules.map((s) => `${s.target ?? s.id} ${s.expression}`).join(', ')}`,
        'per run (and the invocation it makes)',
      ],
      ['log groups', inv.logGroups, 'per GB ingested and stored'],
      ['S3 buckets', inv.buckets, 'per GB-month and request'],
      ['SQS queues', inv.queues, 'per request'],
      ['SNS topics', inv.topics, 'per notification'],
      ['DynamoDB tables', `${inv.tables} (on-demand)`, 'per request unit and GB-month'],
      ['Step Functions state machines', `${inv.stateMachines} (Standard)`, 'per state transition'],
      ['Cognito user pools', inv.userPools, 'per monthly active user'],
      ['HTTP API routes', inv.apiRoutes, 'per request'],
    ],
  );
}

/** The price list as a table. */
function pricesTable(): string {
  const rows = Object.entries(PRICES).flatMap(([service, items]) =>
    Object.values(items as Record<string, Price>).map((p) => [
      SERVICE_NAMES[service as keyof typeof PRICES],
      `${unitPrice(p.usd)} per ${p.unit}`,
      p.source,
      p.read,
      p.checked,
    ]),
  );
  return table(['service', 'price (us-east-1)', 'source', 'read', 'checked'], rows);
}

const assumptionRows = (entries: Record<string, Assumption>) =>
  Object.entries(entries).map(([name, a]) => [`\`${name}\``, `${num(a.value, 3)} ${a.unit}`, a.source]);

/** The section of one generation: the assumptions, its lines, and the storage it adds. */
function generationSection(inv: Inventory): string {
  const files = headshotFiles();
  return `## Per generation (${HEADSHOTS_PER_GENERATION} headshots)

What the template and the code cannot say, assumed:

${table(['assumption', 'value', 'source'], assumptionRows(ASSUMPTIONS))}

${lineTable('per generation', generationLines(inv), 5, 'total')}

### Storage per generation

${table(
  ['file of each headshot', 'pixels', 'bytes'],
  files.map((f) => [f.file, num(f.pixels), `${num(f.bytes / MB, 2)} MB`]),
)}

${table(['format', 'bytes per pixel', 'source'], assumptionRows(BYTES_PER_PIXEL))}

Pixels come from the code (\`functions/domain/headshot-variants.ts\` for the default model's canvas,
\`headshot-images.ts\` for the thumbnail); bytes per pixel were measured. A headshot is
${num(generationBytes() / HEADSHOTS_PER_GENERATION / MB, 2)} MB, so one generation stores
**${num(generationBytes() / MB, 1)} MB**, kept until the customer deletes it or for a year
([decision 011](decisions/011-retention.md)).`;
}

/** The markdown of docs/costs.md, before formatting. */
export function renderCostsDoc(inv: Inventory): string {
  const idle = idleLines(inv);
  const month = monthLines(inv);
  const free = freeTierLines(inv);
  const openAi = openAiPerGeneration();
  const aws = sum(month);
  return `# What Headshot Studio costs to run

<!-- Generated by \`npm run docs:costs\` (infrastructure/report/costs-cli.ts). Edit the price list, the assumptions or
the code, then run it: test/infrastructure/costs-doc.test.ts fails while this file differs from what it writes. -->

Generated by \`npm run docs:costs\` from the stacks synthesized for stage \`${STAGE}\` in ${REGION}
(\`infrastructure/report/\`: the template's inventory, the price list \`prices.ts\`, the assumptions \`assumptions.ts\`
and the code's own constants), so every count below is the template's. AWS list prices for ${REGION}, before free
tiers (a stage shares its account's free tiers with other stages; they are at the end). Stripe's fee per purchase is
not included.

## What the stack holds

${inventoryTable(inv)}

## Prices used

${pricesTable()}

AWS's pricing pages could not be reached where this table was written: the figures are those docs/costs.md cited
when it was typed by hand, and "checked" says how each was confirmed then. Check the page before relying on a figure,
and change it in \`infrastructure/report/prices.ts\` with its date.

## Idle cost per stage (no customer all month)

${lineTable('per month', idle, 2, 'total')}

Everything else (CloudFront, API Gateway, Lambda, Step Functions, DynamoDB, Cognito, SQS, SNS, Firehose, Athena, Glue,
S3 requests) is charged per use only; the data at rest of an idle stage costs under a cent.

${generationSection(inv)}

## A month of ${num(GENERATIONS_PER_MONTH)} generations (one stage)

${lineTable('per month', month, 2, 'AWS total')}

Free tiers, if the account has them to spare:

${lineTable('saves', free, 2, 'at most')}

## OpenAI, separately

The default model at its default quality (\`functions/domain/openai-image-models.ts\`, which cites OpenAI's prices):

${openAi.arithmetic} = **${usd(openAi.usd)} per generation**.

At ${num(GENERATIONS_PER_MONTH)} generations a month that is ${usd(openAi.usd * GENERATIONS_PER_MONTH, 0)},
${num((openAi.usd * GENERATIONS_PER_MONTH) / aws, 0)} times the AWS month above. A headshot that fails the likeness
check is made once more (one more call for that slot).

## Redo it

\`npm run docs:costs\` writes this file again from the current stack, prices and assumptions. Cost Explorer grouped by
the \`stage\` tag (every resource but the dashboard carries it) gives the measured month to compare with.
`;
}

/** docs/costs.md as `npm run docs:costs` writes it: synthesized, rendered and formatted with the repo's prettier. */
export async function costsDocument(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'costs-doc-'));
  try {
    const stacks = synthesizeDeployment(STAGE, REGION, dir);
    const markdown = renderCostsDoc(inventoryOf(stacks.map((s) => s.template)));
    const options = (await resolveConfig(COSTS_DOC)) ?? {};
    // Paragraphs wrapped at the docs' 120 columns (the repo's prettier preserves prose line breaks, so it keeps them).
    return await format(markdown, { ...options, filepath: COSTS_DOC, proseWrap: 'always', printWidth: 120 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
