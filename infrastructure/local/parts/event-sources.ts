import { startEventSourceMapping } from '../stand-ins/lambda/event-source-mapping';
import { startScheduler } from '../stand-ins/eventbridge-scheduler/scheduler';
import type { LocalSqs } from '../stand-ins/sqs/fauxqs';
import type { FunctionsRuntime } from './functions-runtime';
import type { PartLogs, Teardown } from './lifecycle';

/**
 * Starts what invokes functions on its own, with no caller waiting: Lambda's SQS event source mappings (each queue
 * of `sqs` polled for its consumer, with its batch settings) and EventBridge Scheduler's stand-in (the scheduled
 * catalogue functions, such as the generation sweeper, on their rate). They may invoke at once, so the stack starts
 * them only after the handlers' environment is in `process.env`.
 */
export function startEventSources(
  options: { functions: FunctionsRuntime; sqs: LocalSqs; region: string; logs: PartLogs },
  teardown: Teardown,
): void {
  const { functions, sqs, region } = options;
  const sqsLog = options.logs('sqs');
  const mappings = [...sqs.queues.values()].map((queue) =>
    startEventSourceMapping({ queue, client: sqs.client, runtime: functions.runtime, region, log: sqsLog }),
  );
  teardown.add(async () => {
    for (const mapping of mappings) mapping.stop();
  });
  const scheduler = startScheduler({
    functions: functions.functions,
    runtime: functions.runtime,
    log: options.logs('schedule'),
  });
  teardown.add(scheduler.stop);
}
