import { randomUUID } from 'node:crypto';
import {
  EXECUTION_STATUS_CHANGE,
  STATES_EVENT_SOURCE,
  type ExecutionEventStatus,
} from '../../../constructs/execution-ended-rule';
import type { Execution } from './executions';
import type { ServiceLocation } from './state-machines';

/*
 * The "Step Functions Execution Status Change" event the local Step Functions stand-in puts on the local event bus
 * whenever an execution starts or ends, in the shape Step Functions sends to EventBridge's default bus
 * (https://docs.aws.amazon.com/step-functions/latest/dg/eventbridge-integration.html).
 */

/**
 * Step Functions leaves the input out of the event when the escaped input and output together exceed 248 KiB, and
 * the output when it alone does (EventBridge's event size quota); `inputDetails`/`outputDetails.included` say so.
 */
export const MAX_EVENT_PAYLOAD_BYTES = 248 * 1024;

/** The event's `detail`; dates are epoch ms, `null` where AWS puts `null`. */
export interface ExecutionStatusChangeDetail {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionEventStatus;
  startDate: number;
  stopDate: number | null;
  /** The execution input as JSON text; `null` when left out for size. */
  input: string | null;
  inputDetails: { included: boolean };
  /** The output JSON text of a SUCCEEDED execution, else `null`. */
  output: string | null;
  outputDetails: { included: boolean } | null;
  /** The error and cause of a FAILED, TIMED_OUT or ABORTED execution, when it has them. */
  error: string | null;
  cause: string | null;
}

/** An EventBridge event as delivered to a target (EventBridge "Event structure reference"). */
export interface ExecutionStatusChangeEvent {
  version: '0';
  id: string;
  'detail-type': typeof EXECUTION_STATUS_CHANGE;
  source: typeof STATES_EVENT_SOURCE;
  account: string;
  /** ISO 8601 to the second, as EventBridge writes it (`2019-02-26T19:42:21Z`). */
  time: string;
  region: string;
  resources: string[];
  detail: ExecutionStatusChangeDetail;
}

/** Length of `text` as an escaped JSON string, in bytes: what counts against the event quota. */
const escapedBytes = (text: string | undefined) =>
  text === undefined ? 0 : Buffer.byteLength(JSON.stringify(text)) - 2;

/**
 * The status-change event of `execution` as it is now (RUNNING, or its final status with stop date, output or
 * error and cause).
 *
 * @param at where the execution runs: region and account id, as in its ARN
 */
export function executionStatusChangeEvent(
  execution: Execution,
  at: ServiceLocation,
): ExecutionStatusChangeEvent {
  const outputBytes = escapedBytes(execution.output);
  const outputIncluded = execution.output !== undefined && outputBytes <= MAX_EVENT_PAYLOAD_BYTES;
  const inputIncluded =
    escapedBytes(execution.input) + (outputIncluded ? outputBytes : 0) <= MAX_EVENT_PAYLOAD_BYTES;
  const time = execution.stopDate ?? execution.startDate;
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': EXECUTION_STATUS_CHANGE,
    source: STATES_EVENT_SOURCE,
    account: at.accountId,
    time: new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: at.region,
    resources: [execution.executionArn],
    detail: {
      executionArn: execution.executionArn,
      stateMachineArn: execution.stateMachineArn,
      name: execution.name,
      status: execution.status,
      startDate: execution.startDate,
      stopDate: execution.stopDate ?? null,
      input: inputIncluded ? execution.input : null,
      inputDetails: { included: inputIncluded },
      output: outputIncluded ? execution.output! : null,
      outputDetails: execution.output === undefined ? null : { included: outputIncluded },
      error: execution.error ?? null,
      cause: execution.cause ?? null,
    },
  };
}
