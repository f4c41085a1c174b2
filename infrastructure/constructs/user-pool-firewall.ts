import { Duration, Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { stackOutput } from './naming';
import {
  anyOf,
  byteMatch,
  logBlockedRequests,
  managedRuleGroupRule,
  rateRule,
  visibility,
  wafBlockedRequests,
} from './waf';

/**
 * The Cognito user pool API operations each per-IP rate rule of {@link UserPoolFirewall} covers, by the
 * `X-Amz-Target` header every call to the user pool API carries (`AWSCognitoIdentityProviderService.<Operation>`; the
 * AWS Security Blog's "Protect your Amazon Cognito user pool with AWS WAF",
 * https://aws.amazon.com/blogs/security/protect-your-amazon-cognito-user-pool-with-aws-waf/, matches on it). Cognito
 * forwards no e-mail address or password to WAF ("Associate an AWS WAF web ACL with a user pool",
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-waf.html), so a limit per address is Cognito's own
 * (docs/deploy.md, "Production checklist"); these are per source IP.
 * - `signUp`: creating an account (each mails a verification code and may earn the free credits);
 * - `mailCodes`: every unauthenticated call that makes our SES identity mail a code to an address the caller names
 *   (sign-up, resending the code, a password reset);
 * - `confirmCodes`: entering a mailed code (guessing one);
 * - `all`: any call at all, sign-in and token refresh included.
 */
export const USER_POOL_OPERATIONS = {
  signUp: ['SignUp'],
  mailCodes: ['SignUp', 'ResendConfirmationCode', 'ForgotPassword'],
  confirmCodes: ['ConfirmSignUp', 'ConfirmForgotPassword'],
  all: [],
} as const satisfies Record<string, readonly string[]>;

/**
 * Sign-up alone is counted over WAF's longest window, 10 minutes
 * (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html),
 * so its smallest limit of 10 allows half the sign-ups a 5-minute window does (docs/decisions/020-signup-cost.md):
 * - `perIp`: one address (`rate-signUp`): 10 per 10 minutes, 1,440 a day;
 * - `perNetwork`: one autonomous system, the network operator every address of a /24 belongs to (`rate-signUpPerNetwork`,
 *   WAF's `ASN` key): 30 per 10 minutes, 4,320 a day, however many addresses of it a script rotates through. A large
 *   ISP's customers share that count: 30 in 10 minutes is well above this product's sign-ups from any one network;
 *   raise it here when the `rate-signUpPerNetwork` blocks on the dashboard say otherwise.
 */
export const SIGN_UP_LIMITS = { windowSeconds: 600, perIp: 10, perNetwork: 30 } as const;

/**
 * Per-IP limits on the user pool, in requests per 5-minute window. WAF's smallest rate limit is 10
 * (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html).
 * One person signs up once and may ask for a code again or reset a password a few times; 10 sign-ups from one
 * address in 5 minutes is an office or a household behind one NAT at its busiest, or a script. `all` leaves room for
 * a browser signing in, refreshing its tokens every 15 minutes and retrying (about 5 calls each).
 */
export const USER_POOL_RATE_LIMITS = {
  signUp: SIGN_UP_LIMITS.perIp,
  mailCodes: 20,
  confirmCodes: 50,
  all: 500,
} as const satisfies Record<keyof typeof USER_POOL_OPERATIONS, number>;

/** The AWS managed rule group of known bad addresses (bots, scanners, DDoS sources). */
export const IP_REPUTATION_RULE_GROUP = 'AWSManagedRulesAmazonIpReputationList';

/**
 * The AWS managed rule group of anonymising and hosting addresses (VPNs, Tor, proxies; cloud and hosting providers,
 * https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-ip-rep.html), run on sign-up only: a
 * data-centre address is the cheapest one a script can rotate through, a person signs up from a home, office or phone
 * network. Signing in from them stays open.
 */
export const ANONYMOUS_IP_RULE_GROUP = 'AWSManagedRulesAnonymousIpList';

/** Properties of {@link UserPoolFirewall}. */
export interface UserPoolFirewallProps {
  /** Prefix of the metric names and of the web ACL's name (unique per stage and region). */
  name: string;
  /** ARN of the user pool the web ACL protects. */
  userPoolArn: string;
  /** How long the log of blocked and counted requests is kept. */
  logRetention: logs.RetentionDays;
}

/** Matches calls to one operation of the user pool API. */
const targetIs = (operation: string) =>
  byteMatch(
    { singleHeader: { Name: 'x-amz-target' } },
    'EXACTLY',
    `AWSCognitoIdentityProviderService.${operation}`,
  );

/**
 * A regional AWS WAF web ACL (scope `REGIONAL`) associated with the Cognito user pool, so sign-up and the calls that
 * mail codes are rate-limited per IP before Cognito sends anything (requests WAF blocks do not count toward Cognito's
 * quotas either): per-IP rate-based rules on the operations of {@link USER_POOL_OPERATIONS} at
 * {@link USER_POOL_RATE_LIMITS} (sign-up over 10 minutes), sign-ups per network ({@link SIGN_UP_LIMITS}), then the
 * Amazon IP reputation list, and the anonymous and hosting address list on sign-up ({@link ANONYMOUS_IP_RULE_GROUP}). CloudFormation's
 * `AWS::WAFv2::WebACLAssociation` takes a user pool's ARN as its `ResourceArn`
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-wafv2-webaclassociation.html).
 * Blocked requests answer Cognito's `ForbiddenException` (HTTP 403); every rule has CloudWatch metrics
 * ({@link blockedRequests}) and sampled requests, and blocked or counted requests are logged to
 * `aws-waf-logs-<name>` (Cognito forwards no credentials, so nothing needs redacting).
 */
export class UserPoolFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  /** The web ACL's name: the `WebACL` dimension of its AWS/WAFV2 metrics. */
  readonly webAclName: string;

  constructor(scope: Construct, id: string, props: UserPoolFirewallProps) {
    super(scope, id);
    this.webAclName = `${props.name}-user-pool`;
    const webAclName = this.webAclName;
    const rateLimit = (priority: number, name: keyof typeof USER_POOL_RATE_LIMITS) => {
      const targets: readonly string[] = USER_POOL_OPERATIONS[name];
      const scopeDown = targets.length === 0 ? undefined : anyOf(targets.map(targetIs));
      const windowSeconds = name === 'signUp' ? SIGN_UP_LIMITS.windowSeconds : undefined;
      return rateRule({
        webAclName,
        priority,
        name,
        limit: USER_POOL_RATE_LIMITS[name],
        scopeDown,
        windowSeconds,
      });
    };
    const signUp = targetIs('SignUp');

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: this.webAclName,
      description:
        'Headshot Studio: per-IP and per-network limits on sign-up and mailed codes, IP reputation, no sign-up from hosting or anonymising addresses',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(webAclName),
      rules: [
        rateLimit(0, 'signUp'),
        rateLimit(1, 'mailCodes'),
        rateLimit(2, 'confirmCodes'),
        rateLimit(3, 'all'),
        rateRule({
          webAclName,
          priority: 4,
          name: 'signUpPerNetwork',
          key: 'asn',
          limit: SIGN_UP_LIMITS.perNetwork,
          windowSeconds: SIGN_UP_LIMITS.windowSeconds,
          scopeDown: signUp,
        }),
        managedRuleGroupRule({ webAclName, priority: 10, name: IP_REPUTATION_RULE_GROUP }),
        managedRuleGroupRule({ webAclName, priority: 11, name: ANONYMOUS_IP_RULE_GROUP, scopeDown: signUp }),
      ],
    });
    new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.userPoolArn,
      webAclArn: this.webAcl.attrArn,
    });
    stackOutput(this, 'UserPoolWebAclArn', this.webAcl.attrArn);

    const logGroup = logBlockedRequests(this, {
      webAcl: this.webAcl,
      webAclName,
      retention: props.logRetention,
    });
    stackOutput(this, 'UserPoolWebAclLogGroup', logGroup.logGroupName);
  }

  /**
   * Requests the web ACL blocked (AWS/WAFV2 `BlockedRequests`), summed per `period` (default 5 minutes). Its
   * dimensions are the visibility configs' metric names (`WebACL`: the web ACL's, which is its name here; `Rule`: the
   * rule's, or `ALL`) and, for a regional web ACL, `Region`
   * (https://docs.aws.amazon.com/waf/latest/developerguide/waf-metrics.html). `rule`: one rule's name (`rate-signUp`,
   * `AWSManagedRulesAmazonIpReputationList`, …); unset: every rule.
   */
  blockedRequests(rule?: string, period = Duration.minutes(5)): cloudwatch.Metric {
    return wafBlockedRequests(this.webAclName, {
      rule,
      webAclRegion: Stack.of(this).region,
      period,
      label: rule === undefined ? 'User pool web ACL: blocked' : `User pool web ACL: blocked by ${rule}`,
    });
  }
}
