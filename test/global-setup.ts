import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  faceModelRunner,
  useFaceModelRunner,
} from '../functions/adapters/support/vision-models/model-runner';
import { startLocalStack, type LocalStack, type RuntimeConfig } from '../infrastructure/local/stack';
import {
  buildSite,
  startPreviewSite,
  type PreviewSite,
} from '../infrastructure/local/stand-ins/cloudfront/preview';
import { findFreePort } from '../infrastructure/local/support/ports';
import { installRecordedFaceModel } from './helpers/face-model-recording';

let stack: LocalStack | undefined;
let site: PreviewSite | undefined;

/**
 * The one global setup of the integration and e2e projects: starts the local stack exactly as `npm start` does —
 * the real emulators (DynamoDB Local, s3rver, cognito-local, MailDev), the local Lambda, Step Functions, Checkout,
 * SES and gateway endpoints — on free loopback ports, in memory, once per run. Test files stop nothing themselves.
 *
 * - integration: no site; test files get the stack through `inject('localStack')` (setup-env.ts applies its env).
 * - e2e: with the site as it ships: the production build (`vite build`, made beside the stack's start) served as
 *   CloudFront serves it (`vite preview`, `/api` proxied to the gateway), its URL `inject('baseUrl')`. One build
 *   serves every browser test: Vite's dev server (still what `npm start` serves) made each page load fetch and
 *   transform hundreds of modules and run React's development build, and it renders the prerendered pages in the
 *   browser, so their hydration went untested (decision 014). At most six provider calls are in flight across all
 *   generations, so one generation at a time runs as before and a second one started meanwhile waits in line
 *   (test/e2e/queue.test.ts).
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const e2e = project.name === 'e2e';
  // The site's port is fixed before the stack starts: the buckets' CORS allow that origin.
  const sitePort = await findFreePort();
  const siteBuildDir = e2e ? mkdtempSync(join(tmpdir(), 'headshot-e2e-site-')) : undefined;
  const siteBuilt = siteBuildDir ? buildSite(siteBuildDir) : undefined;
  // Settled at once, so a failing build is not an unhandled rejection while the stack still starts.
  siteBuilt?.catch(() => undefined);
  stack = await startLocalStack({
    ports: {
      site: sitePort,
      gateway: 0,
      lambda: 0,
      stepfunctions: 0,
      dynamodb: 0,
      s3: 0,
      cognito: 0,
      checkout: 0,
      ses: 0,
    },
    withSite: false,
    quiet: true,
    env: {
      SUPPORT_EMAIL: 'support@headshot.studio',
      // The same photos, choices and slot render the same pixels in every run, so the recorded face-model answers
      // (test/helpers/face-model-recording.ts) cover the generated headshots too, not only the photos: a likeness
      // check of a render the recording has not seen runs the real models (decision 014, seventh round).
      LOCAL_PROVIDER_VARIATION: 'request',
      ...(e2e ? { PROVIDER_MAX_CONCURRENCY: '6' } : {}),
    },
  });
  // The stack's handlers answer face-model runs from the recording; pixels not recorded go to its model threads.
  const restoreFaceModel = installRecordedFaceModel(useFaceModelRunner, faceModelRunner, () => {
    throw new Error('the local stack runs its face models on threads: no runner was set');
  });
  const { env, gatewayUrl, runtimeConfig } = stack;
  project.provide('localStack', { env, gatewayUrl, runtimeConfig });
  if (siteBuildDir && siteBuilt) {
    try {
      await siteBuilt;
      site = await startPreviewSite({ outDir: siteBuildDir, port: sitePort, gatewayUrl, runtimeConfig });
    } catch (error) {
      await stack.stop();
      throw error;
    }
    project.provide('baseUrl', site.url);
    project.provide('e2eStack', { env, runtimeConfig, inboxUrl: stack.inboxUrl });
  }
  return async () => {
    restoreFaceModel();
    await site?.stop();
    await stack?.stop();
    if (siteBuildDir) rmSync(siteBuildDir, { recursive: true, force: true });
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
    /** e2e only: the same as `localStack`, under the name the browser tests use, and the mail catcher's inbox. */
    e2eStack: {
      env: Record<string, string>;
      runtimeConfig: RuntimeConfig;
      /** MailDev's web inbox (its REST API at `api/email`), where every e-mail the stack sends lands. */
      inboxUrl: string | undefined;
    };
  }
}
