import { extendClients } from '../../../functions/adapters/support/aws';
import { queues as queueCatalogue } from '../../../functions/queue-catalogue';
import type { LocalLog } from '../support/log';
import type { IamCheck, IamDenial } from './caller';
import { denialMessage } from './errors';
import { createIamCheck, type IamCheckStats, type LocalRoles } from './enforcer';
import { iamCheckExtension } from './middleware';
import { loadSynthesizedRoles, localNamesFromEnv, resolveLocalRoles } from './roles';
import type { SynthesizedRoles } from './synthesized';

/*
 * IAM where the code runs locally (docs/decisions/016-local-iam.md): every AWS call a handler makes in the local
 * stack, `npm start` and the integration tests alike, is decided against its function's role as the dev stack
 * synthesizes it, and a denied call fails as it fails in the cloud. `LOCAL_IAM=off` turns the check off (to tell
 * a local failure from a grant's).
 */

/** The check of a local stack, with its counters. */
export type LocalIamCheck = IamCheck & {
  stats(): IamCheckStats;
  /** Resolves once the roles are loaded (synthesized or from the cache); rejects when the synth failed. */
  ready: Promise<void>;
};

/** Whether the environment turns the check off (`LOCAL_IAM=off`). */
export function localIamDisabled(env: Record<string, string | undefined> = {}): boolean {
  return (env.LOCAL_IAM ?? process.env.LOCAL_IAM ?? '').toLowerCase() === 'off';
}

/**
 * The local IAM check: the synthesized roles (loaded now, in the background) resolved to the names in `process.env`
 * at each check, re-resolved when those names change. Adds the check to every SDK client of functions/.
 *
 * @param options.roles the synthesized roles to use instead of the working tree's (a test removing a grant)
 * @param options.log where denials are logged, one line each (the function, the action, the resource)
 */
export function localIamCheck(
  options: { roles?: SynthesizedRoles; log?: LocalLog; onDenied?: IamCheck['onDenied'] } = {},
): LocalIamCheck {
  extendClients(iamCheckExtension);
  let synthesized: SynthesizedRoles | undefined = options.roles;
  const ready = synthesized
    ? Promise.resolve()
    : loadSynthesizedRoles().then((roles) => {
        synthesized = roles;
      });
  // Awaited by whoever needs the roles; a failed synth must not also be an unhandled rejection meanwhile.
  ready.catch(() => undefined);
  let resolved: { key: string; roles: LocalRoles } | undefined;
  const queueNames = queueCatalogue.flatMap((q) => [q.name, `${q.name}-dlq`]);
  const roles = (): LocalRoles => {
    if (!synthesized) throw new Error('The local IAM check was used before its roles were loaded');
    const names = localNamesFromEnv(process.env, queueNames);
    const key = JSON.stringify(names);
    if (resolved?.key !== key) resolved = { key, roles: resolveLocalRoles(synthesized, names) };
    return resolved.roles;
  };
  const onDenied = (functionName: string, denial: IamDenial) => {
    const service = denial.request.action.split(':')[0] ?? '';
    options.log?.error(`IAM denied ${functionName}: ${denialMessage(service, denial)}`);
    options.onDenied?.(functionName, denial);
  };
  const check = createIamCheck(roles, onDenied);
  return {
    ...check,
    async check(functionName, requests) {
      await ready;
      return check.check(functionName, requests);
    },
    ready,
  };
}
