import { beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_IP_RULE_GROUP, SIGN_UP_LIMITS } from '../../infrastructure/constructs/user-pool-firewall';
import { devStack } from './helpers';
import { webAclRules, type WafRule } from './waf-rules';

/**
 * Decision 020 (docs/decisions/020-signup-cost.md): what the user pool's web ACL makes a free account cost to mint.
 */

const SIGN_UP_ONLY = {
  ByteMatchStatement: {
    FieldToMatch: { SingleHeader: { Name: 'x-amz-target' } },
    PositionalConstraint: 'EXACTLY',
    SearchString: 'AWSCognitoIdentityProviderService.SignUp',
    TextTransformations: [{ Priority: 0, Type: 'NONE' }],
  },
};

const DAY_SECONDS = 24 * 3600;

describe('the cost of minting free credits at the user pool', () => {
  let rules: Map<string, WafRule>;
  beforeAll(() => {
    rules = webAclRules(devStack().template, 'REGIONAL');
  });

  it('allows one address 10 sign-ups per 10 minutes: 1,440 a day, half of the 2,880 before', () => {
    const rule = rules.get('rate-signUp')!.Statement.RateBasedStatement!;
    expect(rule.AggregateKeyType).toBe('IP');
    expect(rule.EvaluationWindowSec).toBe(600);
    expect(rule.Limit).toBe(10);
    expect(rule.ScopeDownStatement).toEqual(SIGN_UP_ONLY);
    expect((rule.Limit * DAY_SECONDS) / rule.EvaluationWindowSec).toBe(1440);
  });

  it('counts sign-ups per network (ASN), so rotating through a range of addresses buys no more', () => {
    const rule = rules.get('rate-signUpPerNetwork')!;
    expect(rule.Action).toEqual({ Block: {} });
    const statement = rule.Statement.RateBasedStatement!;
    expect(statement.AggregateKeyType).toBe('CUSTOM_KEYS');
    expect(statement.CustomKeys).toEqual([{ ASN: {} }]);
    expect(statement.Limit).toBe(SIGN_UP_LIMITS.perNetwork);
    expect(statement.EvaluationWindowSec).toBe(SIGN_UP_LIMITS.windowSeconds);
    expect(statement.ScopeDownStatement).toEqual(SIGN_UP_ONLY);
    // A whole network gets a few times one address's allowance, far below 256 addresses' (a /24) 368,640 a day.
    const perDay = (statement.Limit * DAY_SECONDS) / statement.EvaluationWindowSec;
    expect(perDay).toBe(4320);
    expect(perDay).toBeLessThan(256 * 1440);
  });

  it('refuses sign-ups from hosting and anonymising addresses, and only sign-ups', () => {
    const rule = rules.get(ANONYMOUS_IP_RULE_GROUP)!;
    // The group's own rules block; nothing overrides them to count.
    expect(rule.OverrideAction).toEqual({ None: {} });
    expect(rule.Statement.ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: ANONYMOUS_IP_RULE_GROUP,
      ScopeDownStatement: SIGN_UP_ONLY,
    });
  });

  it('puts no CAPTCHA or Challenge on the user pool: the SPA calls Cognito’s API, which cannot answer one', () => {
    for (const rule of rules.values()) {
      expect(rule.Action ?? {}, rule.Name).not.toHaveProperty('Captcha');
      expect(rule.Action ?? {}, rule.Name).not.toHaveProperty('Challenge');
    }
  });
});
