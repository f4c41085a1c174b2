import { fileURLToPath } from 'node:url';
import { CfnOutput } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

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
