import { productionOf } from './production';

/** Cognito feature plans this stack supports (context `cognitoFeaturePlan`). */
export type CognitoFeaturePlan = 'lite' | 'essentials' | 'plus';

/**
 * Cognito threat protection for standard sign-in (context `cognitoThreatProtection`; CloudFormation's
 * `UserPoolAddOns.AdvancedSecurityMode` `OFF | AUDIT | ENFORCED`): `audit` scores each sign-in's risk and publishes
 * metrics without acting; `enforced` also acts (adaptive authentication, compromised-credential checks).
 * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-settings-threat-protection.html
 */
export type ThreatProtection = 'off' | 'audit' | 'enforced';

export const FEATURE_PLANS: readonly CognitoFeaturePlan[] = ['lite', 'essentials', 'plus'];
export const THREAT_PROTECTION_MODES: readonly ThreatProtection[] = ['off', 'audit', 'enforced'];

/**
 * The user pool's feature plan and threat protection, from the stage and what the context sets:
 * - threat protection: as set; unset, `enforced` in production (`production`, default from the stage: production.ts;
 *   or when the plan is `plus`), else `off`, so a dev
 *   stage pays no Plus per MAU;
 * - feature plan: as set; unset, `plus` when threat protection is on (the only plan that offers it: "Threat protection
 *   is available in the Plus feature plan", https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-sign-in-feature-plans.html),
 *   else `essentials`.
 *
 * Returns `{ problem }` (one line of the synth refusal, refusal.ts) when threat protection is on with a plan below Plus.
 */
export function cognitoSecurity(
  stage: string,
  featurePlan?: CognitoFeaturePlan,
  threatProtection?: ThreatProtection,
  production: boolean = productionOf(stage) === true,
): { featurePlan: CognitoFeaturePlan; threatProtection: ThreatProtection } | { problem: string } {
  const mode = threatProtection ?? (production || featurePlan === 'plus' ? 'enforced' : 'off');
  const plan = featurePlan ?? (mode === 'off' ? 'essentials' : 'plus');
  if (mode !== 'off' && plan !== 'plus') {
    return {
      problem:
        threatProtection === undefined
          ? `cognitoFeaturePlan "${plan}": stage ${stage} turns Cognito threat protection on, which needs plus; drop cognitoFeaturePlan, or pass -c cognitoThreatProtection=off to run ${stage} without it`
          : `cognitoThreatProtection "${mode}": needs cognitoFeaturePlan plus (not ${plan}); drop cognitoFeaturePlan or pass -c cognitoThreatProtection=off`,
    };
  }
  return { featurePlan: plan, threatProtection: mode };
}
