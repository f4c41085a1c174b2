import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured logger of every Lambda handler (Powertools for AWS Lambda).
 * Log level comes from `POWERTOOLS_LOG_LEVEL` or `LOG_LEVEL`; secrets are never passed to it.
 */
export const logger = new Logger({ serviceName: 'headshot-studio' });
