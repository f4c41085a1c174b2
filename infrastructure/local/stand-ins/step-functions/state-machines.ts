import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type { LambdaRuntime } from '../lambda/runtime';
import type { LocalLog } from '../../support/log';
import { applyAwsTimeoutDefaults, wrapCallbackTasks, type AslMachine } from './asl';
import type { Execution } from './executions';
import { taskHandlers, type TaskHandlerFactory } from './lambda-tasks';
import { applyDefinitionSubstitutions } from './substitutions';

export interface LoadedMachine {
  name: string;
  arn: string;
  /** The definition text after substitutions (what DescribeStateMachine returns). */
  definition: string;
  timeoutSeconds: number | undefined;
  machine: StateMachine;
  /** Builds the Task handlers of one execution. */
  tasks: TaskHandlerFactory;
  /** Oldest first. */
  executions: Execution[];
  creationDate: number;
}

/** The ARN of the state machine `name` in `region` and `accountId`, as Step Functions writes it. */
export function localStateMachineArn(name: string, region: string, accountId: string): string {
  return `arn:aws:states:${region}:${accountId}:stateMachine:${name}`;
}

/**
 * Loads every `*.asl.json` of `stateMachinesDir` (sorted by name): substitutions applied, Tasks bound to the local
 * Lambda runtime, AWS's timeout defaults made explicit, and the definition validated as AWS would (JSONPaths and
 * ARNs included). Keyed by state machine ARN.
 *
 * @throws {Error} naming the file, for a missing substitution, invalid JSON or ASL, or a non-Lambda Task.
 */
export async function loadStateMachines(options: {
  stateMachinesDir: string;
  substitutions: Record<string, string>;
  region: string;
  accountId: string;
  runtime: LambdaRuntime;
  log: LocalLog;
}): Promise<Map<string, LoadedMachine>> {
  const { stateMachinesDir, substitutions, region, accountId, runtime, log } = options;
  const machines = new Map<string, LoadedMachine>();
  const files = (await readdir(stateMachinesDir)).filter((file) => file.endsWith('.asl.json')).sort();
  for (const file of files) {
    const name = file.slice(0, -'.asl.json'.length);
    try {
      const definition = applyDefinitionSubstitutions(
        await readFile(join(stateMachinesDir, file), 'utf8'),
        substitutions,
      );
      const parsed = JSON.parse(definition) as AslMachine;
      const tasks = taskHandlers(parsed, runtime, log);
      applyAwsTimeoutDefaults(parsed);
      // Validation stays on (JSONPaths and ARNs included): a definition AWS would reject fails here, at start.
      const machine = new StateMachine(parsed as unknown as StateMachineDefinition, {
        validationOptions: { checkPaths: true, checkArn: true },
      });
      wrapCallbackTasks(parsed);
      const arn = localStateMachineArn(name, region, accountId);
      machines.set(arn, {
        name,
        arn,
        definition,
        timeoutSeconds: parsed.TimeoutSeconds,
        machine,
        tasks,
        executions: [],
        creationDate: Date.now(),
      });
    } catch (error) {
      throw new Error(`${join(stateMachinesDir, file)}: ${(error as Error).message}`, { cause: error });
    }
  }
  return machines;
}
