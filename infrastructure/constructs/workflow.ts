import { readFileSync } from 'node:fs';
import { Annotations, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EXECUTION_ENDED_RULE, executionEndedPattern } from './execution-ended-rule';
import { acknowledge, acknowledgeWildcardResources } from './nag';
import { functionArnKey, stackOutput } from './naming';

/** Properties of {@link Workflow}. */
export interface WorkflowProps {
  /** The ASL file (`statemachines/generation.asl.json`). */
  definitionFile: string;
  /** Deployed catalogue functions by name; the ASL refers to them as `${<PascalCaseName>FunctionArn}`. */
  functions: ReadonlyMap<string, lambda.IFunction>;
  /**
   * The non-function substitutions: `TableName`, `UploadsBucket`, `ResultsBucket`, `MaxConcurrency`,
   * `ExecutionTimeoutSeconds` (from the generation deadline).
   */
  values: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** Upper bound for the definition's top-level `TimeoutSeconds` (default 15 minutes). */
  maxTimeoutSeconds?: number;
  /**
   * Run for every execution that ends FAILED, TIMED_OUT or ABORTED (an EventBridge rule on "Step Functions
   * Execution Status Change"): timed-out and stopped executions never reach the definition's Catch, so this function
   * refunds and closes their generation.
   */
  onExecutionEnded?: lambda.IFunction;
}

/** Every `${Key}` the definition text uses, in order of first appearance. */
export function substitutionKeys(definition: string): string[] {
  return [...new Set([...definition.matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]!))];
}

/**
 * The definition's top-level `TimeoutSeconds`, read with each `${Key}` replaced by its value in `values` (others by
 * `0`) so it parses.
 */
export function definitionTimeoutSeconds(
  definition: string,
  values: Record<string, string> = {},
): number | undefined {
  const parsed = JSON.parse(
    definition.replace(/\$\{([^}]+)\}/g, (_, key: string) =>
      Object.hasOwn(values, key) && /^\d+$/.test(values[key]!) ? values[key]! : '0',
    ),
  ) as { TimeoutSeconds?: unknown };
  return typeof parsed.TimeoutSeconds === 'number' ? parsed.TimeoutSeconds : undefined;
}

/**
 * The generation workflow: a Standard state machine built from the ASL file with `DefinitionBody.fromFile` and
 * `definitionSubstitutions` for every `${Key}` the file uses (the function ARNs, table and bucket names, map
 * concurrency) — the same keys the local Step Functions runner substitutes. Its role may invoke exactly the functions
 * the definition references. Logging ALL (with execution data) to a vended-logs group, X-Ray tracing on.
 *
 * The execution timeout lives in the definition (`"TimeoutSeconds"` at the top level: Step Functions ignores CDK's
 * `timeout` for a file definition); a missing or too long one is a synth warning.
 *
 * @throws {Error} when the definition uses a `${Key}` nothing provides (CloudFormation would reject it at deploy).
 */
export class Workflow extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;
  /** The catalogue functions the definition invokes, by name. */
  readonly invokedFunctions: string[];
  readonly timeoutSeconds: number | undefined;
  /** The execution-ended rule's dead-letter queue (events EventBridge could not deliver to the compensator). */
  ruleDeadLetterQueue?: sqs.Queue;

  constructor(scope: Construct, id: string, props: WorkflowProps) {
    super(scope, id);
    const text = readFileSync(props.definitionFile, 'utf8');
    const byKey = new Map([...props.functions].map(([name, fn]) => [functionArnKey(name), { name, fn }]));
    const substitutions: Record<string, string> = {};
    const invoked: { name: string; fn: lambda.IFunction }[] = [];
    const unknown: string[] = [];
    for (const key of substitutionKeys(text)) {
      const fn = byKey.get(key);
      if (fn) {
        substitutions[key] = fn.fn.functionArn;
        invoked.push(fn);
      } else if (Object.hasOwn(props.values, key)) {
        substitutions[key] = props.values[key]!;
      } else {
        unknown.push(key);
      }
    }
    if (unknown.length > 0) {
      throw new Error(
        `${props.definitionFile} uses ${unknown.map((k) => `\${${k}}`).join(', ')}, which nothing provides. ` +
          `Known: ${[...Object.keys(props.values), ...byKey.keys()].join(', ')} (a function must be in the ` +
          'catalogue, functions/catalogue.ts, and not localOnly).',
      );
    }
    this.invokedFunctions = invoked.map((f) => f.name);

    this.timeoutSeconds = definitionTimeoutSeconds(text, props.values);
    const max = props.maxTimeoutSeconds ?? 900;
    if (this.timeoutSeconds === undefined || this.timeoutSeconds > max) {
      Annotations.of(this).addWarningV2(
        'headshot-studio:workflow-timeout',
        `${props.definitionFile} should set a top-level "TimeoutSeconds" of at most ${max} (now: ` +
          `${this.timeoutSeconds ?? 'none'}); a stuck execution otherwise holds reserved credits for up to a year.`,
      );
    }

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-generation`,
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromFile(props.definitionFile),
      definitionSubstitutions: substitutions,
      // Every state transition is logged, but not its input and output: they carry user ids and object keys.
      logs: { destination: this.logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });
    if (invoked.length > 0) {
      this.stateMachine.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['lambda:InvokeFunction'],
          resources: invoked.map((f) => f.fn.functionArn),
        }),
      );
    }
    acknowledgeWildcardResources(
      this.stateMachine.role,
      ['*'],
      'CloudWatch Logs delivery (logs:CreateLogDelivery, …) and X-Ray (xray:PutTraceSegments, …) actions, added for logging and tracing, do not support resource-level permissions.',
    );

    if (props.onExecutionEnded) {
      // The pattern and retry policy come from one definition the local EventBridge stand-in uses too.
      const pattern = executionEndedPattern(this.stateMachine.stateMachineArn);
      const { delivery } = EXECUTION_ENDED_RULE;
      // Events EventBridge could not hand to the compensator after its retries (throttled or failed Invoke calls,
      // a deleted function) land here instead of vanishing; the Operations construct alarms on the first one.
      this.ruleDeadLetterQueue = new sqs.Queue(this, 'ExecutionEndedDeadLetters', {
        retentionPeriod: Duration.days(14),
        enforceSSL: true,
        encryption: sqs.QueueEncryption.SQS_MANAGED,
      });
      acknowledge(
        this.ruleDeadLetterQueue,
        'AwsSolutions-SQS3',
        'This queue is itself the dead-letter queue of the execution-ended rule’s target.',
      );
      new events.Rule(this, EXECUTION_ENDED_RULE.id, {
        description: EXECUTION_ENDED_RULE.description,
        eventPattern: { source: pattern.source, detailType: pattern['detail-type'], detail: pattern.detail },
        targets: [
          new targets.LambdaFunction(props.onExecutionEnded, {
            retryAttempts: delivery.retryAttempts,
            maxEventAge: Duration.seconds(delivery.maxEventAgeSeconds),
            deadLetterQueue: this.ruleDeadLetterQueue,
          }),
        ],
      });
    }

    stackOutput(this, 'StateMachineArn', this.stateMachine.stateMachineArn);
  }
}
