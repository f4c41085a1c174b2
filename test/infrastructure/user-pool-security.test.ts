import { App, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { cognitoSecurity } from '../../infrastructure/constructs/cognito-security';
import { InvalidContextError } from '../../infrastructure/constructs/refusal';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { LEGAL_CONTEXT } from './legal-context';
import {
  ANONYMOUS_IP_RULE_GROUP,
  IP_REPUTATION_RULE_GROUP,
  SIGN_UP_LIMITS,
  USER_POOL_RATE_LIMITS,
  UserPoolFirewall,
} from '../../infrastructure/constructs/user-pool-firewall';
import { devStack, nagAudit, testStack } from './helpers';

type Rule = {
  Name: string;
  Action?: Record<string, unknown>;
  Statement: {
    RateBasedStatement?: {
      Limit: number;
      AggregateKeyType: string;
      EvaluationWindowSec: number;
      ScopeDownStatement?: unknown;
    };
    ManagedRuleGroupStatement?: { Name: string; VendorName: string };
  };
  VisibilityConfig: { CloudWatchMetricsEnabled: boolean; MetricName: string };
};

/** The operations (`X-Amz-Target` values less the service prefix) a rate rule's scope-down matches. */
function targets(scopeDown: unknown): string[] {
  return [...JSON.stringify(scopeDown ?? null).matchAll(/AWSCognitoIdentityProviderService\.(\w+)/g)].map(
    (m) => m[1]!,
  );
}

function userPoolAcl(template: Template): { id: string; rules: Map<string, Rule> } {
  const acls = Object.entries(
    template.findResources('AWS::WAFv2::WebACL', { Properties: { Scope: 'REGIONAL' } }),
  );
  expect(acls).toHaveLength(1);
  const [id, acl] = acls[0]!;
  const rules = (acl.Properties as { Rules: Rule[] }).Rules;
  return { id, rules: new Map(rules.map((r) => [r.Name, r])) };
}

describe('the user pool behind a regional web ACL', () => {
  let template: Template;
  beforeAll(() => {
    ({ template } = devStack());
  });

  it('associates a REGIONAL web ACL with the user pool ARN', () => {
    const { id } = userPoolAcl(template);
    const [poolId] = Object.keys(template.findResources('AWS::Cognito::UserPool'));
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      ResourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] },
      WebACLArn: { 'Fn::GetAtt': [id, 'Arn'] },
    });
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
    });
  });

  it('blocks per IP: sign-up alone, every call that mails a code, code guesses, and everything', () => {
    const { rules } = userPoolAcl(template);
    const rate = (name: string) => {
      const rule = rules.get(name);
      expect(rule, name).toBeDefined();
      expect(rule!.Action).toEqual({ Block: {} });
      const statement = rule!.Statement.RateBasedStatement!;
      expect(statement.AggregateKeyType).toBe('IP');
      // Sign-up alone over WAF's longest window (decision 020), so its limit of 10 is half as many a day.
      expect(statement.EvaluationWindowSec).toBe(name === 'rate-signUp' ? SIGN_UP_LIMITS.windowSeconds : 300);
      return statement;
    };
    const signUp = rate('rate-signUp');
    expect(targets(signUp.ScopeDownStatement)).toEqual(['SignUp']);
    expect(JSON.stringify(signUp.ScopeDownStatement)).toMatch(/"SingleHeader":\{"Name":"x-amz-target"\}/);
    expect(signUp.Limit).toBe(USER_POOL_RATE_LIMITS.signUp);
    // Each of these makes our SES identity mail a code to an address the caller chooses.
    const mail = rate('rate-mailCodes');
    expect(targets(mail.ScopeDownStatement).sort()).toEqual(
      ['ForgotPassword', 'ResendConfirmationCode', 'SignUp'].sort(),
    );
    expect(targets(rate('rate-confirmCodes').ScopeDownStatement).sort()).toEqual([
      'ConfirmForgotPassword',
      'ConfirmSignUp',
    ]);
    const all = rate('rate-all');
    expect(all.ScopeDownStatement).toBeUndefined();
    // WAF's smallest rate limit is 10; sign-up is the tightest, the ceiling the loosest.
    expect(signUp.Limit).toBeGreaterThanOrEqual(10);
    expect(signUp.Limit).toBeLessThanOrEqual(mail.Limit);
    expect(mail.Limit).toBeLessThan(all.Limit);
  });

  it('runs the Amazon IP reputation list (and, on sign-up, the anonymous IP list) after the rate rules', () => {
    const { rules } = userPoolAcl(template);
    expect(rules.get(IP_REPUTATION_RULE_GROUP)?.Statement.ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: IP_REPUTATION_RULE_GROUP,
    });
    expect([...rules.keys()]).toEqual([
      'rate-signUp',
      'rate-mailCodes',
      'rate-confirmCodes',
      'rate-all',
      'rate-signUpPerNetwork',
      IP_REPUTATION_RULE_GROUP,
      ANONYMOUS_IP_RULE_GROUP,
    ]);
  });

  it('publishes a CloudWatch metric per rule and logs what it blocked', () => {
    const { id, rules } = userPoolAcl(template);
    const names = [...rules.values()].map((r) => r.VisibilityConfig.MetricName);
    for (const rule of rules.values()) expect(rule.VisibilityConfig.CloudWatchMetricsEnabled).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    const logging = Object.values(template.findResources('AWS::WAFv2::LoggingConfiguration')).find(
      (l) => JSON.stringify(l.Properties.ResourceArn) === JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] }),
    );
    expect(logging, 'a logging configuration for the user pool web ACL').toBeDefined();
    expect(JSON.stringify(logging!.Properties.LoggingFilter)).toContain('BLOCK');
  });

  it('shows its blocked requests on the stage dashboard, beside the CloudFront web ACL’s', () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard!.Properties);
    // The dashboard names the web ACL only in that metric: ["AWS/WAFV2","BlockedRequests","Region",…,"WebACL","<name>"].
    expect(body).toMatch(/\\"BlockedRequests\\",\\"Region\\".*?\\"WebACL\\",\\"Test-dev-user-pool\\"/);
  });

  it('names the BlockedRequests metric by the dimensions WAF publishes for a regional web ACL', () => {
    const stack = new Stack(new App(), 'Metric', { env: { region: 'eu-west-1', account: '123456789012' } });
    const firewall = new UserPoolFirewall(stack, 'Firewall', {
      name: 'HeadshotStudio-prod-eu-west-1',
      userPoolArn: 'arn:aws:cognito-idp:eu-west-1:123456789012:userpool/eu-west-1_abc',
      logRetention: logs.RetentionDays.ONE_MONTH,
    });
    expect(firewall.blockedRequests().dimensions).toEqual({
      WebACL: 'HeadshotStudio-prod-eu-west-1-user-pool',
      Region: 'eu-west-1',
      Rule: 'ALL',
    });
    expect(firewall.blockedRequests('rate-signUp').dimensions?.Rule).toBe(
      'HeadshotStudio-prod-eu-west-1-user-pool-rate-signUp',
    );
    // The Rule dimension is the rule's metric name (its visibility config).
    const acl = firewall.webAcl.rules as { name: string; visibilityConfig: { metricName: string } }[];
    expect(acl.find((r) => r.name === 'rate-signUp')!.visibilityConfig.metricName).toBe(
      firewall.blockedRequests('rate-signUp').dimensions?.Rule,
    );
    expect((firewall.webAcl.visibilityConfig as { metricName: string }).metricName).toBe(firewall.webAclName);
  });
});

describe('Cognito threat protection', () => {
  it('is off in dev on the Essentials plan (no Plus per MAU), with the nag finding acknowledged', () => {
    const { template, stack } = devStack();
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'ESSENTIALS',
      UserPoolAddOns: Match.absent(),
    });
    expect(nagAudit(stack).open).toEqual([]);
  });

  it('is enforced in prod on the Plus plan', () => {
    const { template, stack } = testStack(
      { stage: 'prod', mailFrom: 'headshots@example.com' },
      'Threat-prod',
    );
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
    expect(nagAudit(stack).open).toEqual([]);
  });

  it('takes audit or off on any stage, and Plus brings enforcement by default', () => {
    const audit = testStack({ cognitoThreatProtection: 'audit' }, 'Audit-dev');
    audit.template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'AUDIT' },
    });
    const off = testStack(
      { stage: 'prod', mailFrom: 'headshots@example.com', cognitoThreatProtection: 'off' },
      'Off-prod',
    );
    off.template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'ESSENTIALS',
      UserPoolAddOns: Match.absent(),
    });
    expect(cognitoSecurity('dev', 'plus')).toEqual({ featurePlan: 'plus', threatProtection: 'enforced' });
  });

  it('refuses threat protection on a plan below Plus, naming what to pass', () => {
    expect(() =>
      testStack({ cognitoThreatProtection: 'enforced', cognitoFeaturePlan: 'essentials' }, 'Mismatch-dev'),
    ).toThrow(InvalidContextError);
    expect(() =>
      testStack(
        { stage: 'prod', mailFrom: 'headshots@example.com', cognitoFeaturePlan: 'lite' },
        'Lite-prod',
      ),
    ).toThrow(/cognitoFeaturePlan "lite": stage prod turns Cognito threat protection on, which needs plus/);
  });

  it('reads -c cognitoThreatProtection and refuses a bad value in one line', () => {
    const settings = (context: Record<string, string>) => settingsFromContext(new App({ context }).node);
    expect(settings({}).cognitoThreatProtection).toBe('off');
    expect(settings({}).cognitoFeaturePlan).toBe('essentials');
    const prod = settings({ stage: 'prod', mailFrom: 'headshots@example.com', ...LEGAL_CONTEXT });
    expect([prod.cognitoThreatProtection, prod.cognitoFeaturePlan]).toEqual(['enforced', 'plus']);
    expect(settings({ cognitoThreatProtection: 'AUDIT' }).cognitoThreatProtection).toBe('audit');
    let refusal: unknown;
    try {
      settings({ cognitoThreatProtection: 'on' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InvalidContextError);
    expect((refusal as Error).message).toBe(
      'Invalid context: cognitoThreatProtection "on": off, audit or enforced',
    );
    expect(() => settings({ cognitoThreatProtection: 'audit', cognitoFeaturePlan: 'lite' })).toThrow(
      /cognitoThreatProtection "audit": needs cognitoFeaturePlan plus \(not lite\)/,
    );
  });
});
