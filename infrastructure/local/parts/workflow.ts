import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { executionEndedRule, startEventBus } from '../stand-ins/eventbridge/bus';
import { createAsyncInvoker } from '../stand-ins/lambda/async-invoke';
import type { FunctionsRuntime } from './functions-runtime';
import { startStepFunctionsServer, stateMachineSubstitutions } from '../stand-ins/step-functions/server';
import { REPO_ROOT } from '../support/paths';
import { HOST } from '../support/ports';
import type { DataDir, PartLogs, Teardown } from './lifecycle';

/** The state machine `STATE_MACHINE_ARN` names: `statemachines/<name>.asl.json`, the generation workflow. */
const GENERATION_STATE_MACHINE = 'generation';

/**
 * Starts the generation workflow's services: EventBridge's default bus and the Step Functions stand-in on `port`,
 * running every `statemachines/*.asl.json` with the CDK's definition substitutions. Step Functions puts each
 * execution's status changes on the bus, and the execution-ended rule hands the ones the cloud rule matches to the
 * compensator, with Lambda's asynchronous retries; what fails every run lands in `<data dir>/dead-letter/`.
 *
 * @param env the handlers' environment, which the substitutions read (table, buckets, generation limits)
 * @returns the handlers' `STATE_MACHINE_ARN` (absent when there is no generation workflow to start)
 */
export async function startWorkflow(
  options: {
    port: number;
    functions: FunctionsRuntime;
    region: string;
    env: Readonly<Record<string, string>>;
    dataDir: DataDir;
    logs: PartLogs;
  },
  teardown: Teardown,
): Promise<{ env: { STATE_MACHINE_ARN?: string } }> {
  const { functions, region } = options;
  const eventsLog = options.logs('events');
  const bus = startEventBus({
    rules: [
      executionEndedRule({
        region,
        deadLetterDir: join(options.dataDir.path, 'dead-letter'),
        log: eventsLog,
      }),
    ],
    invoker: createAsyncInvoker(functions.runtime, { log: eventsLog }),
    log: eventsLog,
  });
  teardown.add(bus.stop);

  const stateMachinesDir = join(REPO_ROOT, 'statemachines');
  const stepfunctions = await startStepFunctionsServer({
    port: options.port,
    host: HOST,
    runtime: functions.runtime,
    stateMachinesDir,
    substitutions: stateMachineSubstitutions(
      functions.functions.map((f) => f.name),
      region,
      options.env,
    ),
    region,
    events: bus,
    log: options.logs('stepfn'),
  });
  teardown.add(() => stepfunctions.close());
  const generation = existsSync(join(stateMachinesDir, `${GENERATION_STATE_MACHINE}.asl.json`));
  return {
    env: generation ? { STATE_MACHINE_ARN: stepfunctions.stateMachineArn(GENERATION_STATE_MACHINE) } : {},
  };
}
