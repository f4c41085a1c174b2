import { Aws, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { stackOutput } from './naming';
import { Construct } from 'constructs';
import { InvalidContextError } from './refusal';
import { PARTIAL_PREFIX, WORK_PREFIX } from '../../functions/domain/object-keys';
import {
  ACCESS_LOG_RETENTION_DAYS,
  DEV_ACCESS_LOG_RETENTION_DAYS,
  HEADSHOT_FILES_BACKSTOP_DAYS,
  HEADSHOT_RETENTION_DAYS,
  UPLOAD_RETENTION_DAYS,
  WORK_RETENTION_DAYS,
} from '../../functions/domain/retention';

/** Properties of {@link Storage}. */
export interface StorageProps {
  stage: string;
  /** Production (production.ts `productionOf`): retained, protected resources. */
  production: boolean;
}

/** Retention periods come from the one shared module the Privacy Policy also reads (docs/decisions/011-retention.md). */
export { UPLOAD_RETENTION_DAYS, WORK_RETENTION_DAYS };
/** Key prefix of the uploads: presigned POSTs are scoped to `uploads/<sub>/…` (docs/architecture.md §3). */
export const UPLOADS_PREFIX = 'uploads/';
/** Key prefix of generated headshots and thumbnails in the results bucket (`results/<sub>/<generation>/…`). */
export const RESULTS_PREFIX = 'results/';
/*
 * WORK_PREFIX: key prefix, in the results bucket, of the provider's raw images between the CallProvider and
 * FinishHeadshot tasks (`work/<sub>/<generation>/<slot>`): FinishHeadshot deletes each one, and anything left expires
 * after WORK_RETENTION_DAYS.
 */
export { PARTIAL_PREFIX, WORK_PREFIX };
/**
 * Days after which the results bucket's lifecycle deletes a headshot's files under `results/`: the retention period
 * plus a day, so the generation sweeper, which deletes the headshot (files, item, counters) when the period ends, goes
 * first and the rule only catches what it missed.
 */
export const RESULTS_EXPIRY_DAYS = HEADSHOT_RETENTION_DAYS + HEADSHOT_FILES_BACKSTOP_DAYS;

/**
 * The settings every data bucket shares: no public access, TLS 1.2 or later only, S3-managed encryption, ACLs
 * disabled, and server access logs written to `logBucket` under `logPrefix` (e.g. `s3/uploads/`).
 */
export function privateBucketProps(logBucket: s3.IBucket, logPrefix: string): s3.BucketProps {
  return {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    encryption: s3.BucketEncryption.S3_MANAGED,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    serverAccessLogsBucket: logBucket,
    serverAccessLogsPrefix: logPrefix,
  };
}

/**
 * The uploads and results buckets (docs/architecture.md §6) and the log bucket their server access logs (and CloudFront's
 * standard logs) go to. Every bucket blocks public access, refuses non-TLS requests and is encrypted with S3-managed
 * keys. `uploads/` expires after 7 days, the results bucket's `work/` (provider images between two workflow tasks)
 * after 1 day, its `results/` (headshots) a day after their year (functions/domain/retention.ts); incomplete
 * multipart uploads are aborted after 1 day.
 *
 * The two data buckets have deterministic names (`<stack>-uploads-<account>-<region>`): the site's
 * Content-Security-Policy must name their endpoints, and the buckets' CORS rule must name the site's origin, so
 * referring to each other's resources would be a dependency cycle; names built from pseudo parameters break it.
 * In `prod` they are retained when the stack goes away or a change replaces them, but not when the create that made
 * them rolls back (RETAIN_ON_UPDATE_OR_DELETE, CloudFormation's `RetainExceptOnCreate`): only customers put objects
 * in them, so they are still empty then and deleting them frees their names for the retry. The log bucket has no
 * fixed name and is always retained in `prod` (AWS writes to it during the create). Elsewhere every bucket is emptied
 * and deleted.
 */
export class Storage extends Construct {
  readonly logBucket: s3.Bucket;
  readonly uploads: s3.Bucket;
  readonly results: s3.Bucket;
  /** Bucket names, known without referring to the bucket resources. */
  readonly uploadsBucketName: string;
  readonly resultsBucketName: string;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    const prod = props.production;
    const removal = prod
      ? { removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE }
      : { removalPolicy: RemovalPolicy.DESTROY, autoDeleteObjects: true };

    this.logBucket = new s3.Bucket(this, 'LogBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      encryption: s3.BucketEncryption.S3_MANAGED,
      // CloudFront standard logging writes with ACLs; S3 server access logs use the bucket policy.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [
        {
          id: 'expire-logs',
          expiration: Duration.days(prod ? ACCESS_LOG_RETENTION_DAYS : DEV_ACCESS_LOG_RETENTION_DAYS),
        },
      ],
      // S3 and CloudFront write logs here while the first create is still running, and CloudFormation cannot delete
      // a bucket that holds objects: with RETAIN_ON_UPDATE_OR_DELETE a failed first create would end in
      // ROLLBACK_FAILED. Prod keeps it instead; it has no fixed name, so the retry creates a new one.
      ...(prod ? { removalPolicy: RemovalPolicy.RETAIN } : removal),
    });

    const prefix = bucketPrefix(Stack.of(this).stackName);
    this.uploadsBucketName = Fn.join('-', [prefix, 'uploads', Aws.ACCOUNT_ID, Aws.REGION]);
    this.resultsBucketName = Fn.join('-', [prefix, 'results', Aws.ACCOUNT_ID, Aws.REGION]);

    this.uploads = new s3.Bucket(this, 'UploadsBucket', {
      ...privateBucketProps(this.logBucket, 's3/uploads/'),
      ...removal,
      bucketName: this.uploadsBucketName,
      lifecycleRules: [
        { id: 'expire-uploads', prefix: UPLOADS_PREFIX, expiration: Duration.days(UPLOAD_RETENTION_DAYS) },
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    this.results = new s3.Bucket(this, 'ResultsBucket', {
      ...privateBucketProps(this.logBucket, 's3/results/'),
      ...removal,
      bucketName: this.resultsBucketName,
      lifecycleRules: [
        { id: 'expire-work', prefix: WORK_PREFIX, expiration: Duration.days(WORK_RETENTION_DAYS) },
        // A streaming slot's latest partial image (issue 36): deleted when the slot finishes, else gone like work/.
        { id: 'expire-partial', prefix: PARTIAL_PREFIX, expiration: Duration.days(WORK_RETENTION_DAYS) },
        { id: 'expire-headshots', prefix: RESULTS_PREFIX, expiration: Duration.days(RESULTS_EXPIRY_DAYS) },
        { id: 'abort-incomplete-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });

    stackOutput(this, 'UploadsBucketName', this.uploads.bucketName);
    stackOutput(this, 'ResultsBucketName', this.results.bucketName);
  }

  /** `https://<bucket>.s3.<region>.amazonaws.com`: where presigned POSTs and GETs go (virtual-hosted, regional). */
  get uploadsEndpoint(): string {
    return regionalEndpoint(this.uploadsBucketName);
  }

  get resultsEndpoint(): string {
    return regionalEndpoint(this.resultsBucketName);
  }

  /**
   * CORS for the site's origin only: the browser POSTs uploads straight to S3 (presigned POST) and reads results
   * with presigned GETs.
   */
  allowSiteOrigin(origin: string): void {
    this.uploads.addCorsRule({
      allowedOrigins: [origin],
      allowedMethods: [s3.HttpMethods.POST],
      allowedHeaders: ['*'],
      exposedHeaders: ['ETag', 'Location'],
      maxAge: 3000,
    });
    this.results.addCorsRule({
      allowedOrigins: [origin],
      allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
      allowedHeaders: ['*'],
      exposedHeaders: ['ETag', 'Content-Disposition'],
      maxAge: 3000,
    });
  }
}

function regionalEndpoint(bucketName: string): string {
  return Fn.join('', ['https://', bucketName, '.s3.', Aws.REGION, '.', Aws.URL_SUFFIX]);
}

/**
 * A bucket-name prefix from the stack name: lowercase letters, digits and hyphens, short enough that
 * `<prefix>-results-<12-digit account>-<longest region>` stays within S3's 63 characters.
 *
 * @throws {InvalidContextError} when the stack name leaves no room (choose a shorter stage name).
 */
export function bucketPrefix(stackName: string): string {
  const prefix = stackName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const longest = `${prefix}-results-123456789012-ap-southeast-5`;
  if (prefix === '' || longest.length > 63) {
    throw new InvalidContextError([
      `stage: the stack name "${stackName}" is too long for the bucket names; use a shorter stage name`,
    ]);
  }
  return prefix;
}
