import { resetImageProviderForTests } from '../../functions/adapters/image-providers';
import { resetConfigForTests } from '../../functions/config/settings';

/**
 * Sets the in-process handlers' configuration for their next call: config is parsed once per cold start
 * (functions/config/settings.ts), so the cached copy — and the image provider built from it — are dropped and the next
 * handler call reads `process.env` again.
 */
export function configureHandlers(env: Record<string, string>): void {
  Object.assign(process.env, env);
  resetConfigForTests();
  resetImageProviderForTests();
}
