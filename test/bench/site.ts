// The bench and the e2e tests build and serve the site the same way: one build, in a process of its own.
export {
  buildSite,
  startPreviewSite,
  type PreviewSite,
} from '../../infrastructure/local/stand-ins/cloudfront/preview';

/**
 * The local stack's ports for a bench run: the preview site on `site` (fixed before the stack starts, as the buckets'
 * CORS allow that origin) and every other service on a free port the OS picks.
 */
export function benchStackPorts(site: number) {
  return { site, gateway: 0, lambda: 0, stepfunctions: 0, dynamodb: 0, s3: 0, cognito: 0, checkout: 0 };
}
