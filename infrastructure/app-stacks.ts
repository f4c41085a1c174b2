import type { App } from 'aws-cdk-lib';
import { routes } from '../functions/http/routes';
import type { StackSettings } from './constructs/settings';
import { refuseUnsupportedRegion } from './constructs/regions';
import { EdgeStack } from './edge-stack';
import { HeadshotStudioStack } from './stack';

/** The region of CloudFront's global resources: a CLOUDFRONT-scoped web ACL must be created there. */
export const EDGE_REGION = 'us-east-1';

/** The Stripe webhook's path (its route in the route table). */
export const WEBHOOK_PATH = routes.find((r) => r.auth === 'stripe-signature')?.path ?? '/api/webhooks/';

/**
 * The stacks of one deployment: `HeadshotStudio-<stage>` in `env.region` and, when that is not us-east-1,
 * `HeadshotStudio-<stage>-<region>-edge` in us-east-1 with the web ACL (both names carry what makes them unique when
 * the same stage is deployed to two regions).
 *
 * @throws {UnsupportedRegionError} when `env.region` is not one of the supported regions (constructs/regions.ts)
 */
export function addStacks(
  app: App,
  settings: StackSettings,
  env: { account?: string; region: string },
): { main: HeadshotStudioStack; edge?: EdgeStack } {
  refuseUnsupportedRegion(env.region);
  const name = `HeadshotStudio-${settings.stage}`;
  const crossRegion = env.region !== EDGE_REGION;
  const edge = crossRegion
    ? new EdgeStack(app, `${name}-${env.region}-edge`, {
        stage: settings.stage,
        production: settings.production,
        firewallName: `${name}-${env.region}`,
        webhookPath: WEBHOOK_PATH,
        alarmEmail: settings.alarmEmail,
        description: `Headshot Studio (${settings.stage}, ${env.region}): the CloudFront web ACL`,
        env: { account: env.account, region: EDGE_REGION },
        crossRegionReferences: true,
      })
    : undefined;
  const main = new HeadshotStudioStack(app, name, {
    ...settings,
    description: `Headshot Studio (${settings.stage}): professional AI headshots from selfies`,
    env,
    crossRegionReferences: crossRegion,
    webAclArn: edge?.firewall.webAcl.attrArn,
    webAclName: edge?.firewall.webAcl.name,
  });
  if (edge) main.addStackDependency(edge);
  return { main, edge };
}
