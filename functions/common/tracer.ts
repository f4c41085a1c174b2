import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * The one X-Ray tracer of every handler (Powertools Tracer). It is on only inside Lambda with active tracing (the CDK
 * stack turns it on for every function): Powertools disables itself when `AWS_EXECUTION_ENV` is unset (the local
 * stack, tests, `npm run invoke`), under `sam local`, and when `POWERTOOLS_TRACE_ENABLED=false`; then every helper
 * here is a no-op and nothing needs an X-Ray daemon. When on, HTTP calls (`https`, and `fetch` through undici's
 * diagnostics channels) become subsegments by themselves; {@link tracedClient} adds the AWS SDK's and
 * {@link traced} names the calls that matter (Stripe, OpenAI).
 */
export const tracer = new Tracer({ serviceName: 'headshot-studio' });

/**
 * An AWS SDK v3 client whose calls are X-Ray subsegments (service, operation, table or bucket, retries), or the
 * client itself when tracing is off.
 */
export function tracedClient<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}

/**
 * Runs `work` inside a subsegment called `name` (e.g. `OpenAI images.edit`, `Stripe checkout.sessions.create`),
 * with `annotations` (indexed, searchable in X-Ray: ids and model names, never personal data or secrets); a thrown
 * error is recorded on it and re-thrown. Without tracing, just runs `work`.
 */
export async function traced<T>(
  name: string,
  work: () => Promise<T>,
  annotations: Readonly<Record<string, string | number | boolean>> = {},
): Promise<T> {
  const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (!parent) return work();
  const subsegment = parent.addNewSubsegment(name);
  for (const [key, value] of Object.entries(annotations)) subsegment.addAnnotation(key, value);
  tracer.setSegment(subsegment);
  try {
    return await work();
  } catch (error) {
    subsegment.addError(error as Error);
    throw error;
  } finally {
    subsegment.close();
    tracer.setSegment(parent);
  }
}
