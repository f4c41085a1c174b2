import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { EdgeAlarms } from './constructs/edge-alarms';
import { Firewall } from './constructs/firewall';
import { stackOutput, tagStage } from './constructs/naming';
import { logRetentionOf, productionOf } from './constructs/production';
import { alarmTopic } from './constructs/topic-alarms';

/** Properties of {@link EdgeStack}. */
export interface EdgeStackProps extends StackProps {
  stage: string;
  /** Production (settings.ts `productionOf`): longer log retention. Default: from the stage. */
  production?: boolean;
  /** The web ACL's name: unique per app stage AND app region (`HeadshotStudio-dev-eu-west-1`). */
  firewallName: string;
  /** The Stripe webhook's path, which gets its own, tighter rate limit. */
  webhookPath: string;
  /** Subscribed to this stack's alarm topic (context `alarmEmail`, as the app stack's). */
  alarmEmail?: string;
}

/**
 * The part of Headshot Studio that must live in us-east-1 when the app is deployed elsewhere: the CloudFront-scoped
 * AWS WAF web ACL (AWS accepts scope CLOUDFRONT only there). The app stack reads its ARN through CDK's cross-region
 * references (`crossRegionReferences: true`: an SSM parameter written here, read by a custom resource there).
 * The web ACL's alarm lives here too, with its own topic: an alarm watches only its own region's metrics, and an
 * alarm action must be a topic of that region.
 */
export class EdgeStack extends Stack {
  readonly firewall: Firewall;
  readonly alarms: EdgeAlarms;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    tagStage(this, props.stage);
    this.firewall = new Firewall(this, 'Firewall', {
      name: props.firewallName,
      webhookPath: props.webhookPath,
      logRetention: logRetentionOf(props.production ?? productionOf(props.stage) === true),
    });
    const topic = alarmTopic(this, 'AlarmTopic', {
      displayName: 'Headshot Studio alarms (us-east-1)',
      email: props.alarmEmail,
    });
    stackOutput(this, 'EdgeAlarmTopicArn', topic.topicArn);
    this.alarms = new EdgeAlarms(this, 'EdgeAlarms', { topic, webAclName: this.firewall.webAcl.name });
  }
}
