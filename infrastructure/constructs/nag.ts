import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag 3 suppressions (docs/toolchain.md): `Validations.of(scope).acknowledge(...)` records the rule on `scope`; cdk-nag
 * skips a finding when the resource or one of its ancestors acknowledged it. Keep `scope` as close to the resource as
 * possible and prefer the granular `Rule[finding]` form, so a suppression never hides a finding it was not meant for.
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * How cdk-nag prints a policy resource in its IAM5 findings (`Resource::<Logical.Arn>/uploads/*`): intrinsics are
 * flattened the way cdk-nag's own `flattenCfnReference` does, so a suppression names exactly one resource pattern.
 */
export function nagResourceFinding(scope: IConstruct, resource: string): string {
  return `Resource::${nagFinding(Stack.of(scope).resolve(resource))}`;
}

/** An already resolved policy resource, flattened as cdk-nag prints it. */
export function nagFinding(resolved: unknown): string {
  return flatten(resolved);
}

function flatten(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (typeof node === 'object' && node !== null) {
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['Fn::Join'])) {
      const [delimiter, items] = o['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if (o['Fn::Sub'] !== undefined) return flatten(o['Fn::Sub']);
    if (Array.isArray(o['Fn::GetAtt'])) {
      const [resource, attribute] = o['Fn::GetAtt'] as [unknown, unknown];
      return `<${flatten(resource)}.${flatten(attribute)}>`;
    }
    if (o['Fn::ImportValue'] !== undefined) return flatten(o['Fn::ImportValue']);
    if (o.Ref !== undefined) return `<${flatten(o.Ref)}>`;
  }
  return JSON.stringify(node);
}

/**
 * Acknowledges IAM5 (wildcard permission) for exactly the listed resource patterns on one role or policy: each
 * pattern is suppressed by its own finding id, so any other wildcard added later on the same role still fails synth.
 */
export function acknowledgeWildcardResources(scope: IConstruct, resources: string[], reason: string): void {
  for (const resource of resources) {
    acknowledge(scope, `AwsSolutions-IAM5[${nagResourceFinding(scope, resource)}]`, reason);
  }
}

/** Acknowledges IAM5 for wildcard actions (`Action::s3:List*`) that a CDK-owned grant writes. */
export function acknowledgeWildcardActions(scope: IConstruct, actions: string[], reason: string): void {
  for (const action of actions) acknowledge(scope, `AwsSolutions-IAM5[Action::${action}]`, reason);
}
