import type { ClientExtension, ExtensibleClient } from '../../../functions/adapters/support/aws';
import { iamRequests, SERVICE_OF_CLIENT, type CallSite } from './actions';
import { currentCaller } from './caller';
import { deniedResponse } from './errors';
import { LOCAL_ACCOUNT_ID } from './roles';
import { sessionTokenOf } from './session-token';

/*
 * The local IAM check in every AWS SDK client of functions/ (adapters/support/aws.ts `extendClients`): a middleware
 * just inside the client's deserializer. For a call of a checked invocation (caller.ts) it asks the invocation's
 * check; a denied call never leaves the process: the middleware answers with the service's own refusal on the wire
 * (errors.ts) and the SDK's deserializer turns it into the error a handler gets from AWS. Presigning never reaches
 * it (the presigner stops the stack before signing): a presigned request is checked where it is used, at S3, under
 * the signer's role, which the S3 client's credentials name in their session token (session-token.ts).
 */

/** The middleware's name in each client's stack. */
export const IAM_CHECK_MIDDLEWARE = 'localIamCheck';

interface HandlerContext {
  clientName?: string;
  commandName?: string;
}
interface Args {
  input: Record<string, unknown>;
  request?: { method?: string };
}
type Next = (args: Args) => Promise<unknown>;

/** Where handlers' calls are made: the region and account of their ARNs, from the handlers' own environment. */
function callSite(): CallSite {
  return {
    region: process.env.AWS_REGION ?? 'us-east-1',
    accountId: LOCAL_ACCOUNT_ID,
    stateMachineArn: process.env.STATE_MACHINE_ARN,
  };
}

const middleware =
  (next: Next, context: HandlerContext) =>
  async (args: Args): Promise<unknown> => {
    const caller = currentCaller();
    if (!caller?.iam) return next(args);
    const service = SERVICE_OF_CLIENT[context.clientName ?? ''];
    if (!service) throw new Error(`The local IAM check does not know the client ${context.clientName}`);
    const operation = (context.commandName ?? '').replace(/Command$/, '');
    const requests = iamRequests(service, operation, args.input, callSite());
    const denial = await caller.iam.check(caller.functionName, requests);
    if (!denial) return next(args);
    caller.iam.onDenied?.(caller.functionName, denial);
    return { response: deniedResponse(service, denial, args.request?.method ?? 'POST'), output: undefined };
  };

type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string; expiration?: Date };
type CredentialProvider = (options?: unknown) => Promise<Credentials>;

/**
 * An S3 client's credentials, inside a checked invocation, carry a session token naming the function. The client
 * memoizes what its credentials provider gives until it expires (@aws-sdk/core, `resolveAwsSdkSigV4Config`), so the
 * credentials given here expire at once: each signature asks again, as the function signing it.
 */
function signAsFunction(config: { credentials?: unknown }): void {
  const credentials = config.credentials as CredentialProvider | undefined;
  if (typeof credentials !== 'function') return;
  config.credentials = async (options?: unknown) => {
    const resolved = await credentials(options);
    const caller = currentCaller();
    const sessionToken = caller?.iam ? sessionTokenOf(caller.functionName) : resolved.sessionToken;
    return { ...resolved, sessionToken, expiration: new Date() };
  };
}

/** Adds the check to one client (idempotent: `override` replaces an earlier copy). */
export const iamCheckExtension: ClientExtension = (client: ExtensibleClient) => {
  client.middlewareStack.use({
    applyToStack(stack: never) {
      (stack as { addRelativeTo(m: unknown, o: object): void }).addRelativeTo(middleware, {
        name: IAM_CHECK_MIDDLEWARE,
        relation: 'after',
        toMiddleware: 'deserializerMiddleware',
        override: true,
      });
    },
  });
  const config = client.config as { serviceId?: string; credentials?: unknown };
  if (config.serviceId === 'S3') signAsFunction(config);
};
