import { join } from 'node:path';
import { S3RVER_CREDENTIALS } from '../stand-ins/s3/s3rver';
import { LOCAL_NAMES } from '../support/settings';
import type { Emulators } from './emulators';

/** The local stack's sign-up bonus pepper (functions/config/signup-bonus.ts): not a secret, only for local data. */
export const LOCAL_SIGNUP_BONUS_PEPPER = 'local-dev-signup-bonus-pepper-not-for-production';

/**
 * The environment the handlers run with locally, in order of precedence, lowest first: the configured environment
 * (`.env`, the shell; unset values dropped), the stand-ins' own variables, then the stack's endpoints, names and
 * credentials, which always win. A few defaults yield to the configured value: POWERTOOLS_METRICS_DISABLED,
 * SIGNUP_BONUS_PEPPER ({@link LOCAL_SIGNUP_BONUS_PEPPER}) and ANALYTICS_DIR (`<data dir>/analytics`).
 * STATE_MACHINE_ARN is not here: the Step Functions stand-in names it once it runs.
 */
export function handlerEnvironment(options: {
  configuredEnv: Record<string, string | undefined> | undefined;
  emulators: Emulators;
  /** The stand-ins' variables (payments, mail, queue URLs) and the SQS endpoint. */
  standIns: { env: Record<string, string>; sqs: { endpoint: string } };
  /** The Lambda Invoke API's and the Step Functions stand-in's URLs. */
  lambdaUrl: string;
  stepfunctionsUrl: string;
  region: string;
  /** `http://localhost:<site port>`, the origin the API's CORS and links name. */
  siteOrigin: string;
  dataDir: string;
}): Record<string, string> {
  const configured = options.configuredEnv ?? {};
  const { emulators, standIns } = options;
  return {
    ...Object.fromEntries(
      Object.entries(configured).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    // Business metrics (EMF lines) are for CloudWatch; locally they would only clutter the log.
    POWERTOOLS_METRICS_DISABLED: configured.POWERTOOLS_METRICS_DISABLED ?? 'true',
    ...standIns.env,
    // A fixed dev pepper keys the sign-up bonus markers (the cloud's is a generated secret), so a local data dir
    // kept across runs still knows who claimed.
    SIGNUP_BONUS_PEPPER: configured.SIGNUP_BONUS_PEPPER ?? LOCAL_SIGNUP_BONUS_PEPPER,
    AWS_REGION: options.region,
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: emulators.dynamodbEndpoint,
    AWS_ENDPOINT_URL_S3: emulators.s3Endpoint,
    AWS_ENDPOINT_URL_SFN: options.stepfunctionsUrl,
    AWS_ENDPOINT_URL_SQS: standIns.sqs.endpoint,
    AWS_ENDPOINT_URL_LAMBDA: options.lambdaUrl,
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: emulators.cognitoEndpoint,
    S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: LOCAL_NAMES.table,
    UPLOADS_BUCKET: LOCAL_NAMES.uploadsBucket,
    RESULTS_BUCKET: LOCAL_NAMES.resultsBucket,
    SITE_ORIGIN: options.siteOrigin,
    COGNITO_USER_POOL_ID: emulators.pool.userPoolId,
    COGNITO_CLIENT_ID: emulators.pool.userPoolClientId,
    COGNITO_ENDPOINT: emulators.cognitoEndpoint,
    // Product analytics land in <data dir>/analytics/<date>.jsonl (`.local/analytics` for npm start).
    ANALYTICS_DIR: configured.ANALYTICS_DIR ?? join(options.dataDir, 'analytics'),
  };
}
