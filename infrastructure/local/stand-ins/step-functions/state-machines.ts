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

/** Where the local Step Functions service runs, as its ARNs and events name it. */
export interface ServiceLocation {
  region: string;
  /** `000000000000` locally, the emulators' convention. */
  accountId: string;
}

/** The ARN of the state machine `name`, as Step Functions writes it. */
export function localStateMachineArn(name: string, at: ServiceLocation): string {
  return `arn:aws:states:${at.region}:${at.accountId}:stateMachine:${name}`;
}

/** The ARN of the execution `name` of the state machine `machineName`, as Step Functions writes it. */
export function localExecutionArn(machineName: string, name: string, at: ServiceLocation): string {
  return `arn:aws:states:${at.region}:${at.accountId}:execution:${machineName}:${name}`;
}

/** The role the local executions report they run as (DescribeStateMachine, the execution's context object). */
export function localRoleArn(at: ServiceLocation): string {
  return `arn:aws:iam::${at.accountId}:role/local-stepfunctions`;
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
  at: ServiceLocation;
  runtime: LambdaRuntime;
  log: LocalLog;
}): Promise<Map<string, LoadedMachine>> {
  const { stateMachinesDir, substitutions, at, runtime, log } = options;
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
      const arn = localStateMachineArn(name, at);
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
