import type { TestProject } from 'vitest/node';
import { startLocalStack, type LocalStack, type RuntimeConfig } from '../../infrastructure/local/stack';

let stack: LocalStack | undefined;

/**
 * Starts the whole product — emulators, gateway and the Vite site — on free loopback ports, in memory, exactly as
 * `npm start` does, and hands its URL to the browser tests as `inject('baseUrl')`.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  stack = await startLocalStack({
    ports: { site: 0, gateway: 0, lambda: 0, stepfunctions: 0, dynamodb: 0, s3: 0, cognito: 0, checkout: 0 },
    withSite: true,
    quiet: true,
    // Six provider calls in flight across all generations: one generation at a time runs as before, a second one
    // started meanwhile waits in line (test/e2e/queue.test.ts).
    env: { SUPPORT_EMAIL: 'support@headshot.studio', PROVIDER_MAX_CONCURRENCY: '6' },
  });
  project.provide('baseUrl', stack.siteUrl!);
  project.provide('e2eStack', { env: stack.env, runtimeConfig: stack.runtimeConfig });
  return async () => {
    await stack?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    e2eStack: {
      env: Record<string, string>;
      runtimeConfig: RuntimeConfig;
    };
  }
}
