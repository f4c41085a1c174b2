import type { Template } from 'aws-cdk-lib/assertions';

/** A WAF statement as the template writes it (the fields a test reads are typed where it reads them). */
export type WafStatement = Record<string, unknown>;

/**
 * One rule of an `AWS::WAFv2::WebACL` as synthesized: a rate-based rule (its limit per `EvaluationWindowSec` seconds,
 * per `AggregateKeyType`) or a managed rule group (AWS WAF's `Rule` type in the CloudFormation reference).
 */
export interface WafRule {
  Name: string;
  Priority: number;
  Action?: {
    Block?: { CustomResponse?: { ResponseCode: number; ResponseHeaders?: unknown[] } };
  } & WafStatement;
  OverrideAction?: WafStatement;
  Statement: {
    RateBasedStatement?: {
      Limit: number;
      AggregateKeyType: string;
      CustomKeys?: unknown[];
      EvaluationWindowSec: number;
      ScopeDownStatement?: WafStatement;
    };
    ManagedRuleGroupStatement?: { Name: string; VendorName: string; ScopeDownStatement?: unknown };
  };
}

/** The rules of the template's one web ACL of `scope` (`REGIONAL`: the user pool's; `CLOUDFRONT`: the site's), by name. */
export function webAclRules(template: Template, scope: 'REGIONAL' | 'CLOUDFRONT'): Map<string, WafRule> {
  const [acl] = Object.values(template.findResources('AWS::WAFv2::WebACL', { Properties: { Scope: scope } }));
  if (!acl) throw new Error(`no ${scope} web ACL in the template`);
  return new Map((acl.Properties as { Rules: WafRule[] }).Rules.map((r) => [r.Name, r]));
}
