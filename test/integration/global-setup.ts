import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack, type RuntimeConfig } from '../../infrastructure/local/stack';

let stack: LocalStack | undefined;

/**
 * Starts the real emulators (DynamoDB Local, s3rver, cognito-local), the local Lambda and Step Functions endpoints
 * and the gateway on free loopback ports, in memory, once for the integration run; test files get its environment
 * through `inject('localStack')` (applied by setup-env.ts) and stop nothing themselves.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  stack = await startLocalStack({
    ports: { site: 0, gateway: 0, lambda: 0, stepfunctions: 0, dynamodb: 0, s3: 0, cognito: 0, checkout: 0 },
    withSite: false,
    quiet: true,
    env: { SUPPORT_EMAIL: 'support@headshot.studio' },
  });
  project.provide('localStack', {
    env: stack.env,
    gatewayUrl: stack.gatewayUrl,
    runtimeConfig: stack.runtimeConfig,
  });
  return async () => {
    await stack?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: {
      env: Record<string, string>;
      gatewayUrl: string;
      runtimeConfig: RuntimeConfig;
    };
  }
}
