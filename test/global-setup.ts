import type { TestProject } from 'vitest/node';
import {
  faceModelRunner,
  useFaceModelRunner,
} from '../functions/adapters/support/vision-models/model-runner';
import { startLocalStack, type LocalStack, type RuntimeConfig } from '../infrastructure/local/stack';
import { installRecordedFaceModel } from './helpers/face-model-recording';

let stack: LocalStack | undefined;

/**
 * The one global setup of the integration and e2e projects: starts the local stack exactly as `npm start` does —
 * the real emulators (DynamoDB Local, s3rver, cognito-local, MailDev), the local Lambda, Step Functions, Checkout,
 * SES and gateway endpoints — on free loopback ports, in memory, once per run. Test files stop nothing themselves.
 *
 * - integration: no site; test files get the stack through `inject('localStack')` (setup-env.ts applies its env).
 * - e2e: with the Vite site, whose URL the browser tests read as `inject('baseUrl')`, and at most six provider calls
 *   in flight across all generations, so one generation at a time runs as before and a second one started
 *   meanwhile waits in line (test/e2e/queue.test.ts).
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const e2e = project.name === 'e2e';
  stack = await startLocalStack({
    ports: {
      site: 0,
      gateway: 0,
      lambda: 0,
      stepfunctions: 0,
      dynamodb: 0,
      s3: 0,
      cognito: 0,
      checkout: 0,
      ses: 0,
    },
    withSite: e2e,
    quiet: true,
    env: { SUPPORT_EMAIL: 'support@headshot.studio', ...(e2e ? { PROVIDER_MAX_CONCURRENCY: '6' } : {}) },
  });
  // The stack's handlers answer face-model runs from the recording; pixels not recorded go to its model threads.
  const restoreFaceModel = installRecordedFaceModel(useFaceModelRunner, faceModelRunner, () => {
    throw new Error('the local stack runs its face models on threads: no runner was set');
  });
  const { env, gatewayUrl, runtimeConfig, siteUrl } = stack;
  project.provide('localStack', { env, gatewayUrl, runtimeConfig });
  if (e2e) {
    project.provide('baseUrl', siteUrl!);
    project.provide('e2eStack', { env, runtimeConfig });
  }
  return async () => {
    restoreFaceModel();
    await stack?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The running local stack: the handlers' environment, the gateway's URL and the SPA's runtime config. */
    localStack: {
      env: Record<string, string>;
      gatewayUrl: string;
      runtimeConfig: RuntimeConfig;
    };
    /** e2e only: the site's URL (`http://localhost:<port>`). */
    baseUrl: string;
    /** e2e only: the same as `localStack`, under the name the browser tests use. */
    e2eStack: {
      env: Record<string, string>;
      runtimeConfig: RuntimeConfig;
    };
  }
}
