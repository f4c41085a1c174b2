import type { IncomingMessage } from 'node:http';
import * as z from 'zod';

/*
 * The wire protocol of the local Step Functions stand-in: AWS JSON 1.0 (`POST /`, `X-Amz-Target:
 * AWSStepFunctions.<Operation>`), each operation's request validated with Step Functions' limits, and its errors as
 * `{ "__type": "<Exception>", "message" }` so the SDK raises its named exception classes.
 */

/** An AWS JSON-protocol error: `__type` names the SDK's exception class. */
export class SfnError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

// The protocol

const arnString = z.string().min(1).max(2048);
const taskToken = z.string().min(1).max(2048);
export const requests = {
  StartExecution: z.object({
    stateMachineArn: arnString,
    name: z.string().optional(),
    input: z.string().max(262_144).optional(),
    traceHeader: z.string().optional(),
  }),
  DescribeExecution: z.object({ executionArn: arnString }),
  StopExecution: z.object({
    executionArn: arnString,
    error: z.string().max(256).optional(),
    cause: z.string().max(32_768).optional(),
  }),
  ListExecutions: z.object({
    stateMachineArn: arnString,
    statusFilter: z
      .enum(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE'])
      .optional(),
    maxResults: z.number().int().min(0).max(1000).optional(),
    nextToken: z.string().optional(),
  }),
  DescribeStateMachine: z.object({ stateMachineArn: arnString }),
  // https://docs.aws.amazon.com/step-functions/latest/apireference/API_SendTaskSuccess.html (and …Failure,
  // …Heartbeat): taskToken 1-2048 characters, output at most 256 KiB, error 256 and cause 32,768 characters.
  SendTaskSuccess: z.object({ taskToken: taskToken, output: z.string().max(262_144) }),
  SendTaskFailure: z.object({
    taskToken: taskToken,
    error: z.string().max(256).optional(),
    cause: z.string().max(32_768).optional(),
  }),
  SendTaskHeartbeat: z.object({ taskToken: taskToken }),
};
export type Operation = keyof typeof requests;

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Step Functions caps input at 256 KiB; a request a few times larger is not a real client.
    if (size > 1024 * 1024) throw new SfnError('ValidationException', 'Request body too large', 413);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    throw new SfnError('SerializationException', 'The request body is not valid JSON');
  }
}
