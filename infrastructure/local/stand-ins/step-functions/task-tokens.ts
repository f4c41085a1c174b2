import { randomBytes } from 'node:crypto';
import { SfnError } from './protocol';

/*
 * Task tokens of the local Step Functions stand-in: the callback pattern (`.waitForTaskToken`). Each attempt of a
 * callback Task gets a fresh token; the Task waits until SendTaskSuccess, SendTaskFailure, its TimeoutSeconds or its
 * HeartbeatSeconds, and a token is closed for good once its Task attempt or its execution has ended
 * (https://docs.aws.amazon.com/step-functions/latest/dg/connect-to-resource.html#connect-wait-token).
 */

/** A JSON value, as SendTaskSuccess's `output` parses. */
export type TokenOutput = null | boolean | number | string | TokenOutput[] | { [key: string]: TokenOutput };

/**
 * How a callback Task attempt failed: SendTaskFailure's `error`/`cause` (each `null` when the worker left it out, as
 * AWS hands them to a Catch: `{"Error": null, "Cause": null}`, recorded against AWS in localstack's
 * tests/aws/services/stepfunctions/v2/callback/test_callback.snapshot.json, test_sqs_failure_in_wait_for_task_tok_no_error_field),
 * `States.HeartbeatTimeout`, or the Lambda call's own failure. Retry/Catch read `name` as the error name and
 * `message` as the Cause; `States.TaskFailed` matches it, as AWS documents for every Task error but `States.Timeout`.
 */
export class CallbackFailure extends Error {
  readonly isRetryable = true;
  readonly isCatchable = true;
  constructor(error: string | null, cause: string | null) {
    super();
    // The library copies `name` and `message` into the Catch output verbatim; AWS writes null for an absent field.
    Object.defineProperty(this, 'name', { value: error, enumerable: false, configurable: true });
    Object.defineProperty(this, 'message', { value: cause, enumerable: false, configurable: true });
  }
}

// 96 random bytes: 128 base64 characters, no padding. AWS's tokens are opaque base64 of up to 2048 characters
// (SendTaskSuccess taskToken: "Length Constraints: Minimum length of 1. Maximum length of 2048"); ours carry no data.
const TOKEN_PATTERN = /^AQ[A-Za-z0-9+/]{128}$/;

interface TokenRecord {
  executionArn: string;
  open: boolean;
  /** Epoch ms at which the Task's TimeoutSeconds ends it. */
  expiresAt: number;
  heartbeatMs?: number;
  timers: NodeJS.Timeout[];
  heartbeat?: NodeJS.Timeout;
  resolve(output: TokenOutput): void;
  reject(error: Error): void;
}

/** What a callback Task attempt waits on. */
export interface IssuedToken {
  token: string;
  /** Settles with SendTaskSuccess's output, or rejects with a {@link CallbackFailure}. */
  outcome: Promise<TokenOutput>;
  /** Fails the attempt (the Lambda call failed) with `error`, unless the token was already answered. */
  fail(error: Error): void;
}

/**
 * The task tokens of one local Step Functions service, in memory.
 *
 * Error answers, as Step Functions gives them to SendTaskSuccess/SendTaskFailure/SendTaskHeartbeat
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_SendTaskSuccess.html#API_SendTaskSuccess_Errors):
 * - a token not of the shape Step Functions issues: `InvalidToken` "Invalid Token: 'Invalid token'" (AWS's answer to
 *   SendTaskHeartbeat with the token "FakeTaskToken", as recorded in public API-client tests run against AWS);
 * - a well-formed token this service never issued (say, from before a restart): `TaskDoesNotExist`;
 * - a token whose Task attempt was already answered, timed out, or whose execution ended (stopped, timed out,
 *   failed, succeeded): `TaskTimedOut` "Task Timed Out: 'Provided task does not exist anymore'" (what AWS returned for
 *   a late and for a duplicate SendTaskSuccess, https://github.com/andybalham/blog-source-code, "step function task
 *   tokens" part 2).
 */
export class TaskTokens {
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly byExecution = new Map<string, Set<string>>();

  /**
   * A fresh token for one attempt of a callback Task of `executionArn`.
   *
   * @param limits `timeoutSeconds`: the Task's TimeoutSeconds (the library fails the state with `States.Timeout`;
   *   the token closes at the same moment); `heartbeatSeconds`: the Task's HeartbeatSeconds, when set: without a
   *   SendTaskHeartbeat (or an answer) within it the attempt fails with `States.HeartbeatTimeout`.
   */
  issue(executionArn: string, limits: { timeoutSeconds: number; heartbeatSeconds?: number }): IssuedToken {
    const token = `AQ${randomBytes(96).toString('base64')}`;
    let resolve!: (output: TokenOutput) => void;
    let reject!: (error: Error) => void;
    const outcome = new Promise<TokenOutput>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // The library races the handler against its own timer; a rejection nobody awaits any more must not surface.
    outcome.catch(() => undefined);
    const timeoutMs = limits.timeoutSeconds * 1000;
    const record: TokenRecord = {
      executionArn,
      open: true,
      expiresAt: Date.now() + timeoutMs,
      heartbeatMs: limits.heartbeatSeconds === undefined ? undefined : limits.heartbeatSeconds * 1000,
      timers: [],
      resolve,
      reject,
    };
    // The library's own timer fails the state with States.Timeout; this one only closes the token.
    record.timers.push(setTimeout(() => this.close(record), timeoutMs).unref());
    this.tokens.set(token, record);
    let tokens = this.byExecution.get(executionArn);
    if (!tokens) this.byExecution.set(executionArn, (tokens = new Set()));
    tokens.add(token);
    this.armHeartbeat(record);
    return {
      token,
      outcome,
      fail: (error) => {
        if (record.open) {
          this.close(record);
          record.reject(error);
        }
      },
    };
  }

  /** SendTaskSuccess: the attempt succeeds with `output` (JSON text). @throws {SfnError} as described above. */
  succeed(token: string, output: string): void {
    const record = this.openRecord(token);
    let value: TokenOutput;
    try {
      value = JSON.parse(output) as TokenOutput;
    } catch (error) {
      // https://docs.aws.amazon.com/step-functions/latest/apireference/API_SendTaskSuccess.html: InvalidOutput,
      // "The provided JSON output data is not valid."
      throw new SfnError('InvalidOutput', `Invalid Output: '${(error as Error).message}'`);
    }
    this.close(record);
    record.resolve(value);
  }

  /** SendTaskFailure: the attempt fails with `error`/`cause` (Retry/Catch apply). @throws {SfnError} */
  fail(token: string, error: string | undefined, cause: string | undefined): void {
    const record = this.openRecord(token);
    this.close(record);
    record.reject(new CallbackFailure(error ?? null, cause ?? null));
  }

  /** SendTaskHeartbeat: restarts the HeartbeatSeconds clock (TimeoutSeconds still bounds the attempt). @throws {SfnError} */
  heartbeat(token: string): void {
    this.armHeartbeat(this.openRecord(token));
  }

  /** Closes every token of an execution that ended (any status): later answers get `TaskTimedOut`. */
  closeExecution(executionArn: string): void {
    for (const token of this.byExecution.get(executionArn) ?? []) {
      const record = this.tokens.get(token);
      if (record) this.close(record);
    }
  }

  private openRecord(token: string): TokenRecord {
    if (!TOKEN_PATTERN.test(token)) throw new SfnError('InvalidToken', "Invalid Token: 'Invalid token'");
    const record = this.tokens.get(token);
    if (!record)
      throw new SfnError('TaskDoesNotExist', "Task Does Not Exist: 'Provided task does not exist'");
    if (record.open && Date.now() >= record.expiresAt) this.close(record);
    if (!record.open) {
      throw new SfnError('TaskTimedOut', "Task Timed Out: 'Provided task does not exist anymore'");
    }
    return record;
  }

  private armHeartbeat(record: TokenRecord): void {
    if (record.heartbeatMs === undefined) return;
    clearTimeout(record.heartbeat);
    record.heartbeat = setTimeout(() => {
      if (!record.open) return;
      this.close(record);
      record.reject(new CallbackFailure('States.HeartbeatTimeout', null));
    }, record.heartbeatMs).unref();
  }

  private close(record: TokenRecord): void {
    record.open = false;
    for (const timer of record.timers) clearTimeout(timer);
    clearTimeout(record.heartbeat);
  }
}
