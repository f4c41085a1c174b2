import { Stack, Token } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { Dashboard } from './dashboard';
import { EdgeAlarms } from './edge-alarms';
import type { Api } from './api';
import type { DeployedFunction } from './functions';
import { Operations, type OperationsProps } from './operations';
import type { Workflow } from './workflow';

/** Properties of {@link Monitoring}. */
export interface MonitoringProps extends Omit<
  OperationsProps,
  'mail' | 'functions' | 'httpApi' | 'accessLogs' | 'stateMachine' | 'ruleDeadLetterQueue'
> {
  api: Api;
  workflow?: Workflow;
  /** Every deployed function (its catalogue entry gives its name and timeout). */
  deployed: readonly DeployedFunction[];
  /** The stage's SES configuration set, when it sends mail. */
  mailConfigurationSet?: string;
  distributionId: string;
  /** The CloudFront web ACL's name, when it is in this stack (the app deployed in us-east-1). */
  webAclName?: string;
  /** Requests the user pool's web ACL blocked, for the dashboard's WAF widget. */
  userPoolBlocks?: cloudwatch.IMetric;
  /** The alarms made elsewhere (Alarms, Reliability), for the dashboard's alarm status widget. */
  otherAlarms: () => cloudwatch.IAlarm[];
}

/**
 * What operators watch (issue 26 items 1-2): the blind-spot alarms ({@link Operations}), the us-east-1 alarms when
 * this stack is there ({@link EdgeAlarms}; outside us-east-1 the edge stack makes them) and the stage's dashboard.
 */
export class Monitoring extends Construct {
  readonly operations: Operations;
  readonly edgeAlarms?: EdgeAlarms;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const watched = {
      httpApi: props.api.httpApi,
      stateMachine: props.workflow?.stateMachine,
      functions: props.deployed.map(({ entry, fn }) => ({
        name: entry.name,
        fn: fn.function,
        timeoutSeconds: entry.timeoutSeconds,
      })),
    };
    this.operations = new Operations(this, 'Operations', {
      ...props,
      ...watched,
      accessLogs: props.api.accessLogs,
      ruleDeadLetterQueue: props.workflow?.ruleDeadLetterQueue,
      mail: Boolean(props.mailConfigurationSet),
    });
    const region = Stack.of(this).region;
    if (Token.isUnresolved(region) || region === 'us-east-1') {
      this.edgeAlarms = new EdgeAlarms(this, 'EdgeAlarms', {
        topic: props.topic,
        distributionId: props.distributionId,
        webAclName: props.webAclName,
      });
    }
    this.dashboard = new Dashboard(this, 'Dashboard', {
      stage: props.stage,
      tableName: props.table.tableName,
      ...watched,
      operations: this.operations,
      distributionId: props.distributionId,
      webAclName: props.webAclName,
      userPoolBlocks: props.userPoolBlocks,
      mailConfigurationSet: props.mailConfigurationSet,
      alarms: [...props.otherAlarms(), ...this.operations.alarms, ...(this.edgeAlarms?.alarms ?? [])],
    });
  }
}
