import {
  getDenialReasons,
  isWildcardOnlyAction,
  runSimulation,
  runUnsafeSimulation,
  type Simulation,
} from '@cloud-copilot/iam-simulate';
import type { IamRequest } from './actions';
import type { IamCheck, IamDenial } from './caller';

/*
 * The decision AWS makes for each request of a function's call, made here by @cloud-copilot/iam-simulate (AGPL-3.0,
 * a development dependency that never ships: docs/decisions/016-local-iam.md) from the function's role as the stack
 * synthesizes it (roles.ts) and the resource's own policy (the buckets' and queues'), in one account: a request is
 * allowed when the identity or the resource policy allows it and no policy denies it. Decisions are cached per
 * (function, action, resource, condition keys); the policies do not change while the stack runs.
 */

/** An IAM policy document, as the template has it once resolved (Statement, Effect, Action, Resource, Condition). */
export type PolicyDocument = Record<string, unknown>;

/** One function's role: its name and its identity policies. */
export interface LocalRole {
  /** The role's name in ARNs (`assumed-role/<roleName>/<function>`): its logical id in the stack. */
  roleName: string;
  policies: PolicyDocument[];
}

/** What the check decides with: every deployed function's role and the resources' own policies. */
export interface LocalRoles {
  accountId: string;
  /** By function name (the catalogue's). */
  functions: Record<string, LocalRole>;
  /** By resource ARN: a bucket's (`arn:aws:s3:::<bucket>`, for its objects too) or a queue's policy. */
  resourcePolicies: Record<string, PolicyDocument>;
}

/**
 * How many requests were decided, how many came from the cache, and the simulations' summed duration (ms, from start
 * to end of each: concurrent ones overlap, so it bounds their CPU time from above).
 */
export interface IamCheckStats {
  requests: number;
  cached: number;
  simulatedMs: number;
}

/**
 * The condition keys every request of a function carries in the cloud: the SDK speaks HTTPS with TLS 1.3 to every
 * AWS endpoint (the local emulators' plain HTTP is theirs, not the code's), so the stack's `enforceSSL` denies never
 * match the code's calls.
 */
const TRANSPORT_KEYS = { 'aws:SecureTransport': 'true' } as const;

/** The bucket of an S3 ARN (`arn:aws:s3:::bucket/key` → `arn:aws:s3:::bucket`), else the ARN itself. */
function policyResource(resource: string): string {
  if (!resource.startsWith('arn:aws:s3:::')) return resource;
  const slash = resource.indexOf('/');
  return slash === -1 ? resource : resource.slice(0, slash);
}

/** Thrown when the simulator cannot evaluate a request (a policy it finds invalid, a key it does not know). */
export class IamSimulationError extends Error {
  override readonly name = 'IamSimulationError';
}

const wildcardOnly = new Map<string, Promise<boolean>>();
function isWildcardOnly(action: string): Promise<boolean> {
  let known = wildcardOnly.get(action);
  if (!known) {
    const [service = '', name = ''] = action.split(':');
    wildcardOnly.set(action, (known = isWildcardOnlyAction(service, name)));
  }
  return known;
}

async function decide(
  role: LocalRole,
  functionName: string,
  request: IamRequest,
  roles: LocalRoles,
): Promise<IamDenial | undefined> {
  const principal = `arn:aws:sts::${roles.accountId}:assumed-role/${role.roleName}/${functionName}`;
  const contextVariables: Record<string, string> = { ...TRANSPORT_KEYS, ...request.context };
  if (request.action.startsWith('s3:')) contextVariables['s3:TlsVersion'] = '1.3';
  const simulation: Simulation = {
    request: {
      principal,
      action: request.action,
      resource: { resource: request.resource, accountId: roles.accountId },
      contextVariables,
    },
    identityPolicies: role.policies.map((policy, i) => ({ name: `${role.roleName}-${i}`, policy })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    resourcePolicy: roles.resourcePolicies[policyResource(request.resource)],
  };
  // The authorization data lists no resource type for a few actions AWS authorizes on a resource (SendTaskSuccess on
  // the state machine, which CDK's grantTaskResponse grants): the validating run refuses any ARN for them, so they
  // are evaluated as written, without validation.
  if (request.resource !== '*' && (await isWildcardOnly(request.action))) {
    const result = runUnsafeSimulation(simulation, {});
    if (result === 'Allowed') return undefined;
    return { request, principal, reason: result === 'ExplicitlyDenied' ? 'identity-deny' : 'implicit' };
  }
  const result = await runSimulation(simulation, {});
  if (result.resultType === 'error') {
    throw new IamSimulationError(
      `The local IAM check cannot evaluate ${request.action} on ${request.resource} for ${functionName}: ${JSON.stringify(result.errors)}`,
    );
  }
  if (result.overallResult === 'Allowed') return undefined;
  const analysis = result.resultType === 'single' ? result.result.analysis : result.results[0]?.analysis;
  const explicit = analysis ? getDenialReasons(analysis).find((d) => d.denialType === 'Explicit') : undefined;
  const reason =
    result.overallResult === 'ExplicitlyDenied' && explicit
      ? explicit.policyType === 'resource'
        ? 'resource-deny'
        : 'identity-deny'
      : 'implicit';
  return { request, principal, reason };
}

/** Entries kept in the decision cache before it starts again (a few MB; the integration suite stays far below). */
const CACHE_LIMIT = 100_000;

/**
 * The check the local runtime applies to each invocation's AWS calls.
 *
 * @param roles the roles to decide with; read again on every check, so a stack whose names settle after the runtime
 *   starts (roles.ts `loadLocalRoles`) resolves them once known; a new value empties the cache
 */
export function createIamCheck(
  roles: () => LocalRoles,
  onDenied?: IamCheck['onDenied'],
): IamCheck & { stats(): IamCheckStats } {
  let cacheOf: LocalRoles | undefined;
  const cache = new Map<string, Promise<IamDenial | undefined>>();
  const stats: IamCheckStats = { requests: 0, cached: 0, simulatedMs: 0 };

  async function decideOne(current: LocalRoles, functionName: string, request: IamRequest) {
    stats.requests++;
    const key = `${functionName}\n${request.action}\n${request.resource}\n${JSON.stringify(request.context ?? {})}`;
    const known = cache.get(key);
    if (known) {
      stats.cached++;
      return known;
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    const role = current.functions[functionName]!;
    const started = performance.now();
    const decision = decide(role, functionName, request, current).finally(() => {
      stats.simulatedMs += performance.now() - started;
    });
    cache.set(key, decision);
    decision.catch(() => cache.delete(key));
    return decision;
  }

  return {
    async check(functionName, requests) {
      const current = roles();
      if (current !== cacheOf) {
        cache.clear();
        cacheOf = current;
      }
      if (!current.functions[functionName]) return undefined;
      for (const request of requests) {
        const denial = await decideOne(current, functionName, request);
        if (denial) return denial;
      }
      return undefined;
    },
    onDenied,
    stats: () => ({ ...stats }),
  };
}
