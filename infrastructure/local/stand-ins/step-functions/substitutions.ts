import { generationTimeBudgetOf } from '../../../../functions/domain/generation-deadline';
import { FINISH_TASK_SECONDS, slotTaskTimeoutSeconds } from '../../../../functions/domain/provider-timeouts';

/**
 * Applies CDK-style `definitionSubstitutions` to a definition's text: every `${Key}` becomes its value, verbatim.
 *
 * @throws {Error} naming every `${Key}` that has no value (CloudFormation would reject the definition too).
 */
export function applyDefinitionSubstitutions(text: string, substitutions: Record<string, string>): string {
  const missing = new Set<string>();
  const result = text.replace(/\$\{([^}]+)\}/g, (whole, key: string) => {
    if (Object.hasOwn(substitutions, key)) return substitutions[key] as string;
    missing.add(key);
    return whole;
  });
  if (missing.size > 0)
    throw new Error(`No substitution for ${[...missing].map((k) => `\${${k}}`).join(', ')}`);
  return result;
}

/**
 * CDK-style `definitionSubstitutions` for the ASL files: `${<Name>FunctionArn}` for every local function (name in
 * PascalCase, e.g. `workflow-generate` → `WorkflowGenerateFunctionArn`), the table and bucket names, the Map's
 * `MaxConcurrency`, the execution's `TimeoutSeconds`, the CallProvider Task's (`GenerateHeadshotTimeoutSeconds`) and FinishHeadshot's — the same keys the CDK Workflow construct passes
 * (docs/architecture.md §4).
 *
 * @param env the handlers' environment: `TABLE_NAME`, `UPLOADS_BUCKET`, `RESULTS_BUCKET`, and optionally
 *   `GENERATION_MAX_CONCURRENCY` (default 6), `GENERATION_DEADLINE_MINUTES` (default: the domain's deadline) and the
 *   `OPENAI_*` model, quality and timeout the slot's worst case follows.
 */
export function stateMachineSubstitutions(
  functionNames: readonly string[],
  region: string,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  // The execution's and the slot's timeouts, as the CDK stack computes them (functions/domain/generation-deadline.ts).
  const budget = generationTimeBudgetOf(env);
  const substitutions: Record<string, string> = {
    TableName: env.TABLE_NAME ?? '',
    UploadsBucket: env.UPLOADS_BUCKET ?? '',
    ResultsBucket: env.RESULTS_BUCKET ?? '',
    MaxConcurrency: env.GENERATION_MAX_CONCURRENCY ?? '6',
    ExecutionTimeoutSeconds: String(budget.executionTimeoutSeconds),
    GenerateHeadshotTimeoutSeconds: String(slotTaskTimeoutSeconds(env)),
    FinishHeadshotTimeoutSeconds: String(FINISH_TASK_SECONDS),
  };
  for (const name of functionNames) {
    const pascal = name.replace(/(^|[-_/])(\w)/g, (_, __: string, c: string) => c.toUpperCase());
    substitutions[`${pascal}FunctionArn`] = `arn:aws:lambda:${region}:000000000000:function:${name}`;
  }
  return substitutions;
}
