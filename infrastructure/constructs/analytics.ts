import { Aws, Duration, RemovalPolicy, Size, Stack } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as firehose from 'aws-cdk-lib/aws-kinesisfirehose';
import * as glue from 'aws-cdk-lib/aws-glue';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledgeWildcardActions, acknowledgeWildcardResources } from './nag';
import { stackOutput } from './naming';
import { privateBucketProps } from './storage';
import {
  ANALYTICS_EVENT_RETENTION_DAYS,
  ANALYTICS_WORKING_FILES_RETENTION_DAYS,
} from '../../functions/domain/retention';

/** Properties of {@link Analytics}. */
export interface AnalyticsProps {
  stage: string;
  /** Production (production.ts `productionOf`): retained, protected resources. */
  production: boolean;
  /** Where the analytics bucket's server access logs go. */
  logBucket: s3.IBucket;
}

/** Key prefix of delivered events: `events/dt=YYYY-MM-DD/…` (the Glue table's partition `dt`). */
export const EVENTS_PREFIX = 'events/';
/** The Glue table's columns: the fields of `AnalyticsRecord` (functions/domain/analytics.ts). */
export const EVENT_COLUMNS: readonly { name: string; type: string }[] = [
  ...[
    'event_name',
    'event_time',
    'received_at',
    'source',
    'session_id',
    'anonymous_id',
    'user_sub',
    'path',
  ].map((name) => ({ name, type: 'string' })),
  { name: 'props', type: 'map<string,string>' },
];

/**
 * Product analytics in the cloud (docs/architecture.md, "Analytics"): an Amazon Data Firehose stream (encrypted)
 * delivering gzipped JSON lines to a private bucket under `events/dt=<date>/`, a Glue database and table over that
 * prefix (partition projection on `dt`, so no crawler and no partition upkeep), and an Athena workgroup whose results
 * stay in the same bucket — what `npm run report -- funnel --cloud` queries. Events are kept 400 days
 * (functions/domain/retention.ts).
 */
export class Analytics extends Construct {
  readonly bucket: s3.Bucket;
  readonly stream: firehose.DeliveryStream;
  readonly databaseName: string;
  readonly tableName = 'events';
  readonly workGroupName: string;

  constructor(scope: Construct, id: string, props: AnalyticsProps) {
    super(scope, id);
    const prod = props.production;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      ...privateBucketProps(props.logBucket, 's3/analytics/'),
      lifecycleRules: [
        {
          id: 'expire-events',
          prefix: EVENTS_PREFIX,
          expiration: Duration.days(ANALYTICS_EVENT_RETENTION_DAYS),
        },
        {
          id: 'expire-query-results',
          prefix: 'athena-results/',
          expiration: Duration.days(ANALYTICS_WORKING_FILES_RETENTION_DAYS),
        },
        {
          id: 'expire-delivery-errors',
          prefix: 'errors/',
          expiration: Duration.days(ANALYTICS_WORKING_FILES_RETENTION_DAYS),
        },
      ],
      ...(prod
        ? // Only Firehose deliveries of customers' events write here: empty when a failed first create rolls back.
          { removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE }
        : { removalPolicy: RemovalPolicy.DESTROY, autoDeleteObjects: true }),
    });

    const deliveryErrors = new logs.LogGroup(this, 'DeliveryErrors', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stream = new firehose.DeliveryStream(this, 'Stream', {
      encryption: firehose.StreamEncryption.awsOwnedKey(),
      destination: new firehose.S3Bucket(this.bucket, {
        dataOutputPrefix: `${EVENTS_PREFIX}dt=!{timestamp:yyyy-MM-dd}/`,
        errorOutputPrefix: 'errors/!{firehose:error-output-type}/dt=!{timestamp:yyyy-MM-dd}/',
        bufferingInterval: Duration.seconds(60),
        bufferingSize: Size.mebibytes(5),
        compression: firehose.Compression.GZIP,
        // Firehose's delivery errors; CDK's default log group would be retained (and orphaned) by every destroy.
        loggingConfig: new firehose.EnableLogging(deliveryErrors),
      }),
    });
    // The destination adds its log stream to the group, retained by default: it goes with the group.
    for (const child of deliveryErrors.node.children) {
      if (child instanceof logs.LogStream) child.applyRemovalPolicy(RemovalPolicy.DESTROY);
    }

    // The role the S3 destination creates gets CDK's bucket grant (wildcard actions on this one bucket's objects).
    const destinationRole = this.stream.node.findChild('S3 Destination Role');
    acknowledgeWildcardActions(
      destinationRole,
      ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'],
      "CDK's read/write grant for Firehose's S3 destination, limited to the analytics bucket: Firehose writes, lists and cleans up partial uploads there.",
    );
    acknowledgeWildcardResources(
      destinationRole,
      [`${this.bucket.bucketArn}/*`],
      'Firehose writes objects under keys it chooses at delivery time (date prefixes); the grant stops at the analytics bucket.',
    );

    const stackName = Stack.of(this).stackName;
    this.databaseName = `${stackName.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}_analytics`;
    const database = new glue.CfnDatabase(this, 'Database', {
      catalogId: Aws.ACCOUNT_ID,
      databaseInput: { name: this.databaseName, description: 'Headshot Studio product analytics' },
    });
    const location = `s3://${this.bucket.bucketName}/${EVENTS_PREFIX}`;
    const table = new glue.CfnTable(this, 'Table', {
      catalogId: Aws.ACCOUNT_ID,
      databaseName: this.databaseName,
      tableInput: {
        name: this.tableName,
        description: 'One row per analytics event (JSON lines delivered by Firehose)',
        tableType: 'EXTERNAL_TABLE',
        partitionKeys: [{ name: 'dt', type: 'string' }],
        parameters: {
          classification: 'json',
          'projection.enabled': 'true',
          'projection.dt.type': 'date',
          'projection.dt.format': 'yyyy-MM-dd',
          'projection.dt.range': '2026-01-01,NOW',
          'projection.dt.interval': '1',
          'projection.dt.interval.unit': 'DAYS',
          'storage.location.template': `${location}dt=\${dt}/`,
        },
        storageDescriptor: {
          location,
          columns: [...EVENT_COLUMNS],
          inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
          outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
          serdeInfo: {
            serializationLibrary: 'org.openx.data.jsonserde.JsonSerDe',
            parameters: { 'ignore.malformed.json': 'true' },
          },
        },
      },
    });
    table.addResourceDependency(database);

    this.workGroupName = `${stackName}-analytics`;
    new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: this.workGroupName,
      description: 'Funnel reports over the analytics table',
      // Athena refuses to delete a workgroup that holds query executions or named queries unless told to, which
      // would fail `cdk destroy` once a funnel report ran. It holds only query history: the results and events stay
      // in the bucket (retained on prod).
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        // A runaway query stops at 1 GiB scanned.
        bytesScannedCutoffPerQuery: 1024 ** 3,
        resultConfiguration: {
          outputLocation: `s3://${this.bucket.bucketName}/athena-results/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });

    stackOutput(
      this,
      'AnalyticsDatabase',
      this.databaseName,
      'ANALYTICS_DATABASE for npm run report -- funnel --cloud',
    );
    stackOutput(this, 'AnalyticsTable', this.tableName, 'ANALYTICS_TABLE');
    stackOutput(this, 'AnalyticsWorkGroup', this.workGroupName, 'ANALYTICS_WORKGROUP');
  }

  /** Lets `grantee` put records into the stream. */
  grantPut(grantee: iam.IGrantable): void {
    this.stream.grantPutRecords(grantee);
  }
}
