import type { PartLog } from '../../support/log';
import { newWebhookSecret } from './events';
import { startCheckoutProvider } from './server';

/**
 * Starts the local Checkout provider for the local stack, unless a real `STRIPE_SECRET_KEY` is configured (then
 * Stripe itself is used and the environment is left alone). A fresh webhook secret is generated for each start
 * and handed both to the provider (to sign) and to the handlers (to verify); it is never logged.
 *
 * @param configuredEnv the environment the stack was given (`.env`, the shell)
 * @param gatewayUrl the local API, where the signed webhooks go (`<gatewayUrl>/api/webhooks/stripe`)
 * @returns the handler environment (`STRIPE_SECRET_KEY` emptied, `STRIPE_API_BASE`, `STRIPE_WEBHOOK_SECRET`) and
 *   `stop`, or `undefined` when Stripe itself is configured
 */
export async function startLocalPayments(options: {
  configuredEnv: Record<string, string | undefined> | undefined;
  port: number;
  dataDir: string;
  gatewayUrl: string;
  log: PartLog;
}): Promise<{ env: Record<string, string>; stop: () => Promise<void> } | undefined> {
  if (options.configuredEnv?.STRIPE_SECRET_KEY?.trim()) {
    options.log.info('STRIPE_SECRET_KEY is set: payments go to Stripe (local Checkout provider not started)');
    return undefined;
  }
  const webhookSecret = newWebhookSecret();
  const provider = await startCheckoutProvider({
    port: options.port,
    dataDir: options.dataDir,
    webhookUrl: `${options.gatewayUrl}/api/webhooks/stripe`,
    webhookSecret,
    log: options.log,
  });
  return {
    // An empty key overrides one inherited from the shell, so handlers use the provider and never a stray key.
    env: { STRIPE_SECRET_KEY: '', STRIPE_API_BASE: provider.url, STRIPE_WEBHOOK_SECRET: webhookSecret },
    stop: provider.stop,
  };
}
