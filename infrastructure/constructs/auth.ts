import { Duration, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { stackOutput } from './naming';
import { Construct } from 'constructs';
import { acknowledge } from './nag';
import { InvalidContextError } from './refusal';
import { UserPoolFirewall } from './user-pool-firewall';
import type { DeployedFunction } from './functions';
import { cognitoSecurity, type CognitoFeaturePlan, type ThreatProtection } from './cognito-security';

export type { CognitoFeaturePlan, ThreatProtection } from './cognito-security';

/** Properties of {@link Auth}. */
export interface AuthProps {
  stage: string;
  /** Production (production.ts `productionOf`): retained, protected resources. */
  production: boolean;
  /** Unset: `plus` when threat protection is on, else `essentials` ({@link cognitoSecurity}). */
  featurePlan?: CognitoFeaturePlan;
  /** Unset: `enforced` on prod or with `plus`, else `off` ({@link cognitoSecurity}). */
  threatProtection?: ThreatProtection;
  /** How long the user pool web ACL's log of blocked requests is kept. */
  logRetention: logs.RetentionDays;
  /**
   * Lambda triggers, e.g. post-confirmation: creates the user with 6 free credits (the same idempotent code as
   * GET /me).
   */
  triggers?: ReadonlyMap<cognito.UserPoolOperation, lambda.IFunction>;
  /**
   * Send Cognito's e-mail (verification codes, password resets) through SES as `fromEmail`, an address of the SES
   * `identity` verified in `sesRegion` (needed when the stack's region is not known at synth). `identity` is the
   * address itself or its domain (default: the address): Cognito's `EmailConfiguration.SourceArn` names it, and
   * Cognito refuses the pool ("Email address is not verified") when that ARN is not a verified identity — an
   * address under a verified domain is not one (aws/aws-cdk#18964, #19762). Unset: Cognito's built-in mail, limited
   * to 50 messages a day — for development only.
   */
  ses?: { fromEmail: string; identity?: string; sesRegion?: string; configurationSet?: string };
}

/** Token lifetimes the SPA expects (spec: access token 900 s, refresh token 30 days). */
export const ACCESS_TOKEN_VALIDITY = Duration.minutes(15);
export const REFRESH_TOKEN_VALIDITY = Duration.days(30);
/** How long a rotated-out refresh token still works (Cognito allows 0-60 s). */
export const REFRESH_TOKEN_ROTATION_GRACE = Duration.seconds(30);

const PLANS: Record<CognitoFeaturePlan, cognito.FeaturePlan> = {
  lite: cognito.FeaturePlan.LITE,
  essentials: cognito.FeaturePlan.ESSENTIALS,
  plus: cognito.FeaturePlan.PLUS,
};

const THREAT_PROTECTION: Record<ThreatProtection, cognito.StandardThreatProtectionMode> = {
  off: cognito.StandardThreatProtectionMode.NO_ENFORCEMENT,
  audit: cognito.StandardThreatProtectionMode.AUDIT_ONLY,
  enforced: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
};

/**
 * The user pool and the SPA's app client (docs/architecture.md §6): e-mail sign-in, self sign-up with e-mail verification, a
 * strong password policy, optional TOTP MFA, threat protection (Plus; on in prod, {@link cognitoSecurity}), the
 * post-confirmation trigger, and a regional web ACL in front of the pool ({@link UserPoolFirewall}: per-IP limits on
 * sign-up and on the calls that mail codes). The client is public (no secret) and allows SRP and refresh only:
 * USER_PASSWORD_AUTH exists locally because cognito-local has no SRP, never in the cloud. No hosted UI / OAuth flows.
 */
export class Auth extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly firewall: UserPoolFirewall;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    const prod = props.production;
    const security = cognitoSecurity(props.stage, props.featurePlan, props.threatProtection, prod);
    if ('problem' in security) throw new InvalidContextError([security.problem]);
    const { featurePlan: plan, threatProtection } = security;

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      userVerification: {
        emailStyle: cognito.VerificationEmailStyle.CODE,
        emailSubject: 'Your Headshot Studio verification code',
        emailBody: 'Your Headshot Studio verification code is {####}',
      },
      passwordPolicy: {
        minLength: 8,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      featurePlan: PLANS[plan],
      // Cognito refuses UserPoolAddOns below Plus ("Threat protection is available in the Plus feature plan"); off
      // is the property left out.
      ...(threatProtection === 'off'
        ? {}
        : { standardThreatProtectionMode: THREAT_PROTECTION[threatProtection] }),
      ...(props.ses
        ? {
            email: cognito.UserPoolEmail.withSES({
              fromEmail: props.ses.fromEmail,
              fromName: 'Headshot Studio',
              sesVerifiedDomain: verifiedDomain(props.ses),
              sesRegion: props.ses.sesRegion,
              configurationSetName: props.ses.configurationSet,
            }),
          }
        : {}),
      // Deletion protection makes Cognito refuse DeleteUserPool, so a rollback of a failed first create could not
      // delete the pool (RETAIN_ON_UPDATE_OR_DELETE would end in ROLLBACK_FAILED): prod retains it instead. It has no
      // fixed name, so a retry creates a new pool beside the empty one left behind (docs/deploy.md, "Teardown").
      deletionProtection: prod,
      removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const [operation, fn] of props.triggers ?? []) this.userPool.addTrigger(operation, fn);
    acknowledge(
      this.userPool,
      'AwsSolutions-COG2',
      'MFA is optional (TOTP) by product decision: required MFA at sign-up would block the 6-free-credits trial; users can turn TOTP on.',
    );
    if (plan !== 'plus') {
      acknowledge(
        this.userPool,
        'AwsSolutions-COG8',
        `Feature plan ${plan} on stage ${props.stage}: threat protection needs Plus ($0.02 per MAU); deploy with -c cognitoThreatProtection=enforced (or audit) to use it.`,
      );
    }

    this.client = this.userPool.addClient('WebClient', {
      userPoolClientName: 'web',
      generateSecret: false,
      authFlows: { userSrp: true },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: ACCESS_TOKEN_VALIDITY,
      idTokenValidity: ACCESS_TOKEN_VALIDITY,
      refreshTokenValidity: REFRESH_TOKEN_VALIDITY,
      // Refresh-token rotation (https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-refresh-token.html):
      // every refresh returns a new refresh token, so a stolen one works until its owner's next refresh (15 minutes
      // at most, the access token's life), not for 30 days. Amplify v6 refreshes with GetTokensFromRefreshToken,
      // which rotation requires (the local stack's Cognito front answers it too). The old token keeps working for
      // 30 s, so two tabs refreshing at once, or a retried request whose answer was lost, are not signed out.
      refreshTokenRotationGracePeriod: REFRESH_TOKEN_ROTATION_GRACE,
    });

    const stack = Stack.of(this);
    this.firewall = new UserPoolFirewall(this, 'Firewall', {
      name: Token.isUnresolved(stack.region) ? stack.stackName : `${stack.stackName}-${stack.region}`,
      userPoolArn: this.userPool.userPoolArn,
      logRetention: props.logRetention,
    });

    stackOutput(this, 'UserPoolId', this.userPool.userPoolId);
    stackOutput(this, 'UserPoolClientId', this.client.userPoolClientId);
  }
}

/**
 * The domain to give `UserPoolEmail.withSES` as `sesVerifiedDomain` when the identity is a domain (so SourceArn names
 * `identity/<domain>`), undefined when it is the address itself (SourceArn `identity/<address>`).
 *
 * @throws {Error} when the identity is another address, or a domain other than the sender's own (CDK's withSES takes
 *   only the `fromEmail`'s domain).
 */
function verifiedDomain(ses: { fromEmail: string; identity?: string }): string | undefined {
  const identity = ses.identity?.toLowerCase();
  const from = ses.fromEmail.toLowerCase();
  if (identity === undefined || identity === from) return undefined;
  if (identity.includes('@') || from.slice(from.lastIndexOf('@') + 1) !== identity) {
    throw new Error(`Cognito's sender ${ses.fromEmail} cannot send as the SES identity ${ses.identity}`);
  }
  return identity;
}

/**
 * The user pool's Lambda triggers from the deployed functions: each function of kind `trigger` on the operation its
 * catalogue entry names (`cognitoTrigger: 'PostConfirmation'` → CDK's `postConfirmation`).
 *
 * @throws {Error} when a trigger function names no operation (a catalogue mistake).
 */
export function cognitoTriggers(
  functions: readonly DeployedFunction[],
): Map<cognito.UserPoolOperation, lambda.IFunction> {
  const triggers = new Map<cognito.UserPoolOperation, lambda.IFunction>();
  for (const { entry, fn } of functions) {
    if (entry.kind !== 'trigger') continue;
    if (!entry.cognitoTrigger) throw new Error(`${entry.name}: a trigger function needs its cognitoTrigger`);
    const operation = entry.cognitoTrigger[0]!.toLowerCase() + entry.cognitoTrigger.slice(1);
    triggers.set(cognito.UserPoolOperation.of(operation), fn.function);
  }
  return triggers;
}
