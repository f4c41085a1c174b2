import { AsyncLocalStorage } from 'node:async_hooks';
import type { IamRequest } from './actions';

/*
 * Which local function is running: the in-process Lambda runtime (stand-ins/lambda/runtime.ts) runs every handler
 * inside {@link runAsFunction}, so an AWS SDK call a handler makes — however deep in its adapters, and whatever
 * shared client it goes through — knows whose role to check it against (middleware.ts). Calls made outside any
 * invocation (the stack's own set-up, a test seeding data) are nobody's and are not checked, as in the cloud.
 */

/** A denial: the call, the principal and why, in the terms of AWS's error message (errors.ts). */
export interface IamDenial {
  request: IamRequest;
  /** `arn:aws:sts::<account>:assumed-role/<role>/<function>`, the principal AWS names. */
  principal: string;
  /** Which policy decided: none allowed it, or an explicit Deny in the identity or the resource policy. */
  reason: 'implicit' | 'identity-deny' | 'resource-deny';
}

/** Decides a function's calls against its role (enforcer.ts); what the runtime hands each invocation. */
export interface IamCheck {
  /**
   * The first of `requests` (all the IAM requests of one API call) that `functionName`'s role may not make, or
   * undefined when every one is allowed. A function the stack does not deploy (local-only, a test's own) has no
   * role and is not checked.
   */
  check(functionName: string, requests: readonly IamRequest[]): Promise<IamDenial | undefined>;
  /** Called with every denial, after the call failed (the stack logs it; tests record it). */
  onDenied?: (functionName: string, denial: IamDenial) => void;
}

/** The running invocation: its function and the check its runtime applies (none: unchecked). */
export interface Caller {
  functionName: string;
  iam: IamCheck | undefined;
}

const callers = new AsyncLocalStorage<Caller>();

/** Runs `work` (one invocation of `caller.functionName`) so that its AWS calls are checked as `caller` says. */
export function runAsFunction<T>(caller: Caller, work: () => T): T {
  return callers.run(caller, work);
}

/** The invocation this code runs in, or undefined outside any invocation. */
export function currentCaller(): Caller | undefined {
  return callers.getStore();
}
