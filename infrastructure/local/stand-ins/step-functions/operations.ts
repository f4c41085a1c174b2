import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { LocalLog } from '../../support/log';
import { finish, isValidExecutionName, runExecution, seconds, type Execution } from './executions';
import { SfnError, type Operation, type requests } from './protocol';
import { localExecutionArn, localRoleArn, type LoadedMachine, type ServiceLocation } from './state-machines';
import type { TaskTokens } from './task-tokens';

/** Each operation of the local Step Functions service, taking its validated request body. */
export type Operations = { [Op in Operation]: (body: z.output<(typeof requests)[Op]>) => unknown };

/**
 * The operations of the local Step Functions service over the loaded `machines` and the `executions` it keeps in
 * memory (keyed by execution ARN). See {@link startStepFunctionsServer} for what each answers.
 *
 * @throws {SfnError} (from each operation) with the exception AWS names for the same request.
 */
export function createOperations(context: {
  machines: ReadonlyMap<string, LoadedMachine>;
  executions: Map<string, Execution>;
  at: ServiceLocation;
  log: LocalLog;
  tokens: TaskTokens;
  onStatusChange?: (execution: Execution) => void;
}): Operations {
  const { machines, executions, at, log, tokens, onStatusChange } = context;
  const roleArn = localRoleArn(at);

  /** `arn` after AWS's checks: an ARN of `kind`, naming something that exists. */
  function lookUp<T>(arn: string, kind: 'stateMachine' | 'execution', found: T | undefined): T {
    if (!arn.startsWith('arn:') || !arn.includes(`:${kind}:`)) {
      throw new SfnError('InvalidArn', `Invalid Arn: 'Resource type not valid in this context: ${arn}'`);
    }
    if (found !== undefined) return found;
    throw kind === 'stateMachine'
      ? new SfnError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`)
      : new SfnError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
  }
  /** What ListExecutions says of an execution (DescribeExecution adds input, output, error and cause). */
  const summaryOf = (e: Execution) => ({
    executionArn: e.executionArn,
    stateMachineArn: e.stateMachineArn,
    name: e.name,
    status: e.status,
    startDate: seconds(e.startDate),
    stopDate: seconds(e.stopDate),
  });
  const machineOf = (arn: string): LoadedMachine => lookUp(arn, 'stateMachine', machines.get(arn));
  const executionOf = (arn: string): Execution => lookUp(arn, 'execution', executions.get(arn));

  const operations: Operations = {
    StartExecution({ stateMachineArn, name = randomUUID(), input: inputText = '{}' }) {
      const machine = machineOf(stateMachineArn);
      if (!isValidExecutionName(name)) throw new SfnError('InvalidName', `Invalid Name: '${name}'`);
      let input: unknown;
      try {
        input = JSON.parse(inputText);
      } catch (error) {
        throw new SfnError(
          'InvalidExecutionInput',
          `Invalid State Machine Execution Input: '${(error as Error).message}'`,
        );
      }
      const executionArn = localExecutionArn(machine.name, name, at);
      let execution = executions.get(executionArn);
      if (execution && !(execution.status === 'RUNNING' && execution.input === inputText)) {
        throw new SfnError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
      }
      if (!execution) {
        execution = runExecution(machine, name, inputText, input, {
          executionArn,
          roleArn,
          log,
          tokens,
          onStatusChange,
        });
        executions.set(executionArn, execution);
        machine.executions.push(execution);
      }
      return { executionArn, startDate: seconds(execution.startDate) };
    },

    DescribeExecution({ executionArn }) {
      const e = executionOf(executionArn);
      return {
        ...summaryOf(e),
        input: e.input,
        inputDetails: { included: true },
        ...(e.output === undefined ? {} : { output: e.output, outputDetails: { included: true } }),
        error: e.error,
        cause: e.cause,
      };
    },

    StopExecution({ executionArn, error, cause }) {
      const execution = executionOf(executionArn);
      // Stopping a closed execution is not an error in AWS: it keeps its status and stop date.
      if (finish(execution, 'ABORTED', { error, cause })) {
        execution.abort();
        log.info(`${execution.stateMachineArn.split(':').pop()}/${execution.name} ABORTED by StopExecution`);
      }
      return { stopDate: seconds(execution.stopDate) };
    },

    ListExecutions({ stateMachineArn, statusFilter, maxResults, nextToken }) {
      const machine = machineOf(stateMachineArn);
      const matching = machine.executions.filter((e) => !statusFilter || e.status === statusFilter).reverse();
      const start =
        nextToken === undefined ? 0 : Number(Buffer.from(nextToken, 'base64url').toString('utf8'));
      if (!Number.isInteger(start) || start < 0)
        throw new SfnError('InvalidToken', `Invalid Token: '${nextToken}'`);
      const end = start + (maxResults || 100);
      return {
        executions: matching.slice(start, end).map(summaryOf),
        nextToken: end < matching.length ? Buffer.from(String(end)).toString('base64url') : undefined,
      };
    },

    // The callback pattern (task-tokens.ts has the error answers); each answers `{}`, as AWS does.
    SendTaskSuccess({ taskToken, output }) {
      tokens.succeed(taskToken, output);
      return {};
    },
    SendTaskFailure({ taskToken, error, cause }) {
      tokens.fail(taskToken, error, cause);
      return {};
    },
    SendTaskHeartbeat({ taskToken }) {
      tokens.heartbeat(taskToken);
      return {};
    },

    DescribeStateMachine({ stateMachineArn }) {
      const machine = machineOf(stateMachineArn);
      return {
        stateMachineArn: machine.arn,
        name: machine.name,
        status: 'ACTIVE',
        definition: machine.definition,
        roleArn,
        type: 'STANDARD',
        creationDate: seconds(machine.creationDate),
        loggingConfiguration: { level: 'OFF', includeExecutionData: false },
      };
    },
  };
  return operations;
}
