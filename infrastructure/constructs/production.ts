import * as logs from 'aws-cdk-lib/aws-logs';
import { InvalidContextError } from './refusal';

/** The stages that are production unless context `production=false` says otherwise. */
export const PRODUCTION_STAGES: readonly string[] = ['prod', 'production'];

/**
 * Whether a deployment is production: context `production` (`true`/`false`, case-insensitive) when given, else true
 * exactly when the stage is `prod` or `production`. Production turns on every prod guard (see
 * {@link StackSettings.production}); the one place that decides it, so `-c stage=production` cannot lose them.
 *
 * @returns undefined when `value` is neither true nor false (the caller refuses it).
 */
export function productionOf(stage: string, value?: string | boolean): boolean | undefined {
  if (value === undefined || value === '') return PRODUCTION_STAGES.includes(stage);
  if (typeof value === 'boolean') return value;
  const word = value.trim().toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : undefined;
}

/**
 * The deployment's `production` setting ({@link productionOf} when unset), after the refusals a stack built without
 * `settingsFromContext` (tests, other apps) must meet too: no offline image provider, and an SES sender for Cognito's
 * mail (Cognito's built-in mail sends at most 50 messages a day:
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-email.html).
 *
 * @throws {InvalidContextError} on production with `imageProvider` `local`, or without `mailFrom`/`cognitoMailFrom`.
 */
export function productionGuards(props: {
  stage: string;
  production?: boolean;
  imageProvider?: string;
  mailFrom?: string;
  cognitoMailFrom?: string;
}): boolean {
  const production = props.production ?? productionOf(props.stage) === true;
  if (production && props.imageProvider === 'local') {
    throw new InvalidContextError([
      'imageProvider "local" is refused on production: paying customers get the openai provider (drop -c imageProvider=local)',
    ]);
  }
  if (production && !(props.cognitoMailFrom ?? props.mailFrom)) {
    throw new InvalidContextError([
      'prod needs mailFrom (or cognitoMailFrom): pass -c mailFrom=<an address at your SES-verified domain>, since Cognito must send its mail through SES',
    ]);
  }
  return production;
}

/** How long a stage keeps its logs (functions, API access, WAF): three months on production, one month elsewhere. */
export function logRetentionOf(production: boolean): logs.RetentionDays {
  return production ? logs.RetentionDays.THREE_MONTHS : logs.RetentionDays.ONE_MONTH;
}
