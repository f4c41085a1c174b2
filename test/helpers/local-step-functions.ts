import {
  DescribeExecutionCommand,
  SFNClient,
  StartExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll } from 'vitest';
import {
  startStepFunctionsServer,
  type StepFunctionsServer,
  type StepFunctionsServerOptions,
} from '../../infrastructure/local/stand-ins/step-functions/server';

/** The local Step Functions service of one test file, from {@link useLocalStepFunctions}. */
export interface LocalStepFunctions {
  /** The running service; available inside tests and hooks. */
  readonly server: StepFunctionsServer;
  /** The real AWS SDK client, pointed at {@link server}. */
  readonly sfn: SFNClient;
  /** Starts an execution of the state machine `machine` (its ASL file's name) with `input`; its execution ARN. */
  start(machine: string, input: unknown, name?: string): Promise<string>;
  /** Polls DescribeExecution until the execution leaves RUNNING (the test's own timeout bounds the wait). */
  settled(executionArn: string): Promise<DescribeExecutionCommandOutput>;
}

/**
 * Starts the local Step Functions service on a free port before the file's tests, with `options` (its Lambda
 * runtime, ASL directory, substitutions, log), and an SFNClient for it; closes both after them.
 */
export function useLocalStepFunctions(options: Omit<StepFunctionsServerOptions, 'port'>): LocalStepFunctions {
  let server: StepFunctionsServer | undefined;
  let sfn: SFNClient | undefined;
  const running = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('The local Step Functions service is not started yet (use it in a test)');
    return value;
  };
  beforeAll(async () => {
    server = await startStepFunctionsServer({ ...options, port: 0 });
    sfn = new SFNClient({
      endpoint: server.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  });
  afterAll(async () => {
    sfn?.destroy();
    await server?.close();
  });
  const local: LocalStepFunctions = {
    get server() {
      return running(server);
    },
    get sfn() {
      return running(sfn);
    },
    async start(machine, input, name) {
      const { executionArn } = await local.sfn.send(
        new StartExecutionCommand({
          stateMachineArn: local.server.stateMachineArn(machine),
          input: JSON.stringify(input),
          name,
        }),
      );
      return executionArn!;
    },
    async settled(executionArn) {
      for (;;) {
        const execution = await local.sfn.send(new DescribeExecutionCommand({ executionArn }));
        if (execution.status !== 'RUNNING') return execution;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return local;
}
