import { countMetric, timingMetric } from '../../common/metrics';
import { secretRejected } from '../../common/secrets';
import { traced } from '../../common/tracer';
import {
  ProviderInvalidOutputError,
  ProviderMisconfiguredError,
  ProviderRejectedError,
  ProviderThrottledError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  type ImageProvider,
} from './types';

/**
 * `provider` with every call measured and traced (issue 26, the dashboard's provider row): one `ProviderCalls` and
 * one `ProviderLatency` (ms) per call, `ProviderThrottled` for a 429, `ProviderFailures` for the provider's own
 * failures (5xx, timeout, unusable answer; the `ProviderFailures` alarm watches their rate), `ProviderRefusals` for
 * the calls it refused (the `ProviderRefusalRate` alarm watches their rate), and an X-Ray subsegment
 * `OpenAI images.edit` (or `local provider`) around the HTTP call. A 401 from OpenAI (a rotated or revoked key) makes
 * the next invocation read the key again (common/secrets.ts `secretRejected`).
 */
export function instrumented(provider: ImageProvider): ImageProvider {
  const segment = provider.name === 'openai' ? 'OpenAI images.edit' : `${provider.name} provider`;
  return {
    name: provider.name,
    async generate(request) {
      const started = Date.now();
      const metadata = { provider: provider.name };
      try {
        return await traced(segment, () => provider.generate(request), {
          provider: provider.name,
          slot: request.slot,
        });
      } catch (error) {
        if (error instanceof ProviderThrottledError) countMetric('ProviderThrottled', 1, metadata);
        // The ProviderRefusalRate alarm watches their share of the calls (docs/decisions/018-provider-refusals.md).
        if (error instanceof ProviderRejectedError) countMetric('ProviderRefusals', 1, metadata);
        if (
          error instanceof ProviderUnavailableError ||
          error instanceof ProviderTimeoutError ||
          error instanceof ProviderInvalidOutputError
        ) {
          countMetric('ProviderFailures', 1, { ...metadata, error: error.name });
        }
        if (error instanceof ProviderMisconfiguredError && error.details.status === 401) {
          secretRejected('OPENAI_API_KEY');
        }
        throw error;
      } finally {
        countMetric('ProviderCalls', 1, metadata);
        timingMetric('ProviderLatency', Date.now() - started, { metadata });
      }
    },
  };
}
