import { Stack, Tags, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { Firewall } from './constructs/firewall';

/** Properties of {@link EdgeStack}. */
export interface EdgeStackProps extends StackProps {
  stage: string;
  /** The web ACL's name: unique per app stage AND app region (`HeadshotStudio-dev-eu-west-1`). */
  firewallName: string;
  /** The Stripe webhook's path, which gets its own, tighter rate limit. */
  webhookPath: string;
}

/**
 * The part of Headshot Studio that must live in us-east-1 when the app is deployed elsewhere: the CloudFront-scoped
 * AWS WAF web ACL (AWS accepts scope CLOUDFRONT only there). The app stack reads its ARN through CDK's cross-region
 * references (`crossRegionReferences: true`: an SSM parameter written here, read by a custom resource there).
 */
export class EdgeStack extends Stack {
  readonly firewall: Firewall;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    Tags.of(this).add('app', 'headshot-studio');
    Tags.of(this).add('stage', props.stage);
    this.firewall = new Firewall(this, 'Firewall', {
      name: props.firewallName,
      webhookPath: props.webhookPath,
      logRetention: props.stage === 'prod' ? logs.RetentionDays.THREE_MONTHS : logs.RetentionDays.ONE_MONTH,
    });
  }
}
