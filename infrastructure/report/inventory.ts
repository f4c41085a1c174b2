/**
 * What a deployment's templates hold that its bill counts (docs/costs.md, `npm run docs:costs`): every figure is
 * read from the synthesized CloudFormation, so the cost report follows the stack as it changes.
 */
import type { CfnTemplate, TemplateResource } from './synthesize';

/** A Lambda function of the templates. */
export interface InventoryFunction {
  /** The catalogue's SAM resource id (`GenerationCallProvider`), or the logical id for CDK's own functions. */
  id: string;
  /** MB. */
  memoryMb: number;
  architecture: string;
}

/** A recurring schedule (EventBridge Scheduler, or an EventBridge rule with a schedule). */
export interface InventorySchedule {
  /** The schedule's logical id. */
  id: string;
  /** As written: `rate(1 minute)`. */
  expression: string;
  /** Runs in a 30-day month. */
  runsPerMonth: number;
  /** The target function's {@link InventoryFunction.id}, when the target is a function of the templates. */
  target?: string;
}

/** A WAF web ACL and its rules (a managed rule group is one rule on the bill). */
export interface InventoryWebAcl {
  id: string;
  scope: string;
  rules: number;
}

/** The billable inventory of a deployment. */
export interface Inventory {
  functions: InventoryFunction[];
  alarms: number;
  /** Metrics the alarms read: 1 for an alarm on one metric, each `MetricStat` of a metric-math alarm. */
  alarmMetrics: number;
  /** Of {@link alarmMetrics}, those of alarms on one metric (the kind CloudWatch's free tier covers). */
  singleMetricAlarmMetrics: number;
  /** Distinct metrics outside the `AWS/` namespaces that the alarms read or the metric filters publish. */
  customMetrics: number;
  dashboards: number;
  secrets: number;
  kmsKeys: number;
  webAcls: InventoryWebAcl[];
  schedules: InventorySchedule[];
  logGroups: number;
  buckets: number;
  queues: number;
  topics: number;
  stateMachines: number;
  tables: number;
  userPools: number;
  /** Routes of the HTTP API. */
  apiRoutes: number;
}

const MINUTES_PER_MONTH = 30 * 24 * 60;
const MINUTES_PER_UNIT: Record<string, number> = { minute: 1, hour: 60, day: 24 * 60 };

/**
 * Runs per 30-day month of a `rate(n unit)` expression.
 *
 * @throws {Error} for any other expression (a `cron(…)` would need its own count here)
 */
export function runsPerMonth(expression: string): number {
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  if (!rate)
    throw new Error(`Cannot count the runs of schedule "${expression}": only rate(n unit) is counted`);
  return MINUTES_PER_MONTH / (Number(rate[1]) * MINUTES_PER_UNIT[rate[2]!]!);
}

const ofType = (templates: readonly CfnTemplate[], type: string): [string, TemplateResource][] =>
  templates.flatMap((t) => Object.entries(t.Resources).filter(([, r]) => r.Type === type));

const props = (r: TemplateResource) => r.Properties ?? {};

/** The id a function is known by: its catalogue SAM id, else its logical id. */
function functionIds(templates: readonly CfnTemplate[]): Map<string, string> {
  return new Map(
    ofType(templates, 'AWS::Lambda::Function').map(([logicalId, r]) => {
      const sam = r.Metadata?.SamResourceId;
      return [logicalId, typeof sam === 'string' ? sam : logicalId];
    }),
  );
}

interface MetricStat {
  Metric: { Namespace: string; MetricName: string; Dimensions?: unknown };
}

/** Alarms, the metrics they read, and the custom metrics among them and the metric filters'. */
function alarmCounts(templates: readonly CfnTemplate[]) {
  const custom = new Set<string>();
  const note = (namespace: unknown, name: unknown, dimensions: unknown) => {
    if (typeof namespace === 'string' && !namespace.startsWith('AWS/')) {
      custom.add(JSON.stringify([namespace, name, dimensions ?? []]));
    }
  };
  let alarmMetrics = 0;
  let single = 0;
  const alarms = ofType(templates, 'AWS::CloudWatch::Alarm');
  for (const [, alarm] of alarms) {
    const p = props(alarm);
    const queries = p.Metrics as { MetricStat?: MetricStat }[] | undefined;
    if (queries) {
      const stats = queries.flatMap((q) => (q.MetricStat ? [q.MetricStat.Metric] : []));
      alarmMetrics += stats.length;
      for (const m of stats) note(m.Namespace, m.MetricName, m.Dimensions);
    } else {
      alarmMetrics += 1;
      single += 1;
      note(p.Namespace, p.MetricName, p.Dimensions);
    }
  }
  for (const [, filter] of ofType(templates, 'AWS::Logs::MetricFilter')) {
    for (const t of props(filter).MetricTransformations as {
      MetricNamespace: string;
      MetricName: string;
    }[]) {
      note(t.MetricNamespace, t.MetricName, []);
    }
  }
  return {
    alarms: alarms.length,
    alarmMetrics,
    singleMetricAlarmMetrics: single,
    customMetrics: custom.size,
  };
}

/** Every schedule of the templates, with its target function when it has one. */
function schedules(templates: readonly CfnTemplate[]): InventorySchedule[] {
  const ids = functionIds(templates);
  const targetOf = (arn: unknown) => {
    const att = (arn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt'];
    return att ? ids.get(att[0]) : undefined;
  };
  const scheduled = ofType(templates, 'AWS::Scheduler::Schedule').map(([id, r]) => ({
    id,
    expression: props(r).ScheduleExpression as string,
    target: targetOf((props(r).Target as { Arn?: unknown } | undefined)?.Arn),
  }));
  const rules = ofType(templates, 'AWS::Events::Rule')
    .filter(([, r]) => typeof props(r).ScheduleExpression === 'string')
    .map(([id, r]) => ({
      id,
      expression: props(r).ScheduleExpression as string,
      target: targetOf((props(r).Targets as { Arn?: unknown }[] | undefined)?.[0]?.Arn),
    }));
  return [...scheduled, ...rules].map((s) => ({ ...s, runsPerMonth: runsPerMonth(s.expression) }));
}

/** The billable inventory of `templates` (all the stacks of one deployment). */
export function inventoryOf(templates: readonly CfnTemplate[]): Inventory {
  const ids = functionIds(templates);
  const count = (type: string) => ofType(templates, type).length;
  return {
    functions: ofType(templates, 'AWS::Lambda::Function').map(([logicalId, r]) => ({
      id: ids.get(logicalId)!,
      memoryMb: Number(props(r).MemorySize ?? 128),
      architecture: ((props(r).Architectures as string[] | undefined) ?? ['x86_64'])[0]!,
    })),
    ...alarmCounts(templates),
    dashboards: count('AWS::CloudWatch::Dashboard'),
    secrets: count('AWS::SecretsManager::Secret'),
    kmsKeys: count('AWS::KMS::Key'),
    webAcls: ofType(templates, 'AWS::WAFv2::WebACL').map(([id, r]) => ({
      id,
      scope: props(r).Scope as string,
      rules: (props(r).Rules as unknown[] | undefined)?.length ?? 0,
    })),
    schedules: schedules(templates),
    logGroups: count('AWS::Logs::LogGroup'),
    buckets: count('AWS::S3::Bucket'),
    queues: count('AWS::SQS::Queue'),
    topics: count('AWS::SNS::Topic'),
    stateMachines: count('AWS::StepFunctions::StateMachine'),
    tables: count('AWS::DynamoDB::GlobalTable') + count('AWS::DynamoDB::Table'),
    userPools: count('AWS::Cognito::UserPool'),
    apiRoutes: count('AWS::ApiGatewayV2::Route'),
  };
}
