import { fileURLToPath } from 'node:url';
import { CfnOutput, Tags } from 'aws-cdk-lib';
import type { Construct, IConstruct } from 'constructs';

/** The repository root (this file is infrastructure/constructs/naming.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * PascalCase of a function or handler name, the same rule the local stack uses for its ASL substitutions
 * (`generation-prepare-references` → `GenerationPrepareReferences`, `http/me` → `HttpMe`), so
 * `${<PascalCase>FunctionArn}` means the same function in the cloud and locally.
 */
export function pascalCase(name: string): string {
  return name.replace(/(^|[-_/])(\w)/g, (_, __: string, c: string) => c.toUpperCase());
}

/** The ASL substitution key of a catalogue function: `${GenerationPrepareReferencesFunctionArn}`'s inner name. */
export function functionArnKey(functionName: string): string {
  return `${pascalCase(functionName)}FunctionArn`;
}

/**
 * A stack output with a stable key (`UserPoolId`, not `AuthUserPoolIdC0605E59`), so scripts and the docs can read
 * it with `--query "Stacks[0].Outputs[?OutputKey=='UserPoolId'].OutputValue"`.
 */
export function stackOutput(scope: Construct, key: string, value: string, description?: string): CfnOutput {
  const output = new CfnOutput(scope, key, { value, description });
  output.overrideLogicalId(key);
  return output;
}

/**
 * Tags every resource of `scope` but the dashboard with `app=headshot-studio` and `stage=<stage>`: the cost
 * allocation tags Cost Explorer filters a stage's spend by (AWS/Billing has none per stage), and what tells stacks of
 * two stages apart.
 */
export function tagStage(scope: IConstruct, stage: string): void {
  // Not the dashboard: cfn-lint 1.51.0's us-east-1 schema of AWS::CloudWatch::Dashboard has no Tags (most regions'
  // have; CloudWatch added dashboard tags in 2026), and an untagged $3 dashboard is better than a failed deploy.
  const options = { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] };
  Tags.of(scope).add('app', 'headshot-studio', options);
  Tags.of(scope).add('stage', stage, options);
}
