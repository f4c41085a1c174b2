import { mkdirSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { functionNameOf } from '../../functions/catalogue';
import { pascalCase } from '../../infrastructure/constructs/naming';
import { HeadshotStudioStack, type HeadshotStudioStackProps } from '../../infrastructure/stack';
import { testTempDir } from '../helpers/temp-dir';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** A directory that never exists: the default site and layer directories of test stacks. */
export const NOWHERE = join(FIXTURES, 'does-not-exist');

/**
 * A test stack with stub function code (no esbuild: synth in seconds), no built site and no sharp layer unless the
 * props say otherwise, so results do not depend on what the working tree has built.
 */
export function testStack(props: Partial<HeadshotStudioStackProps> = {}, id?: string) {
  const app = new App();
  const stage = props.stage ?? 'dev';
  const stack = new HeadshotStudioStack(app, id ?? `Test-${stage}`, {
    stubFunctionCode: true,
    siteDir: NOWHERE,
    nativeLayerDir: NOWHERE,
    ...props,
    stage,
  });
  return { app, stack, template: Template.fromStack(stack) };
}

let dev: ReturnType<typeof testStack> | undefined;

/** The dev-stage test stack every `stack-*.test.ts` reads, synthesized once per test file. */
export function devStack(): ReturnType<typeof testStack> {
  return (dev ??= testStack({ stage: 'dev' }));
}

/** The logical id of the function that runs `handler` (its catalogue name in PascalCase). */
export const samIdOfHandler = (handler: string) => pascalCase(functionNameOf(handler));

/**
 * A directory laid out like the sharp layer (`nodejs/node_modules/sharp`, `@img/sharp-linux-arm64`).
 *
 * @param dir where to lay it out; by default a temp dir removed when the running test finishes
 */
export function fakeSharpLayer(dir = testTempDir('sharp-layer-')): string {
  const modules = join(dir, 'nodejs', 'node_modules');
  for (const pkg of ['sharp', '@img/sharp-linux-arm64']) {
    mkdirSync(join(modules, pkg), { recursive: true });
    writeFileSync(join(modules, pkg, 'package.json'), JSON.stringify({ name: pkg, version: '0.35.5' }));
  }
  return dir;
}

type Resource = { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> };

/** Every deployed app function by its SAM resource id (`HttpMe`, `CognitoPostConfirmation`). */
export function appFunctions(template: Template): Map<string, { logicalId: string; resource: Resource }> {
  const result = new Map<string, { logicalId: string; resource: Resource }>();
  for (const [logicalId, resource] of Object.entries(template.findResources('AWS::Lambda::Function'))) {
    const id = (resource as Resource).Metadata?.SamResourceId;
    if (typeof id === 'string') result.set(id, { logicalId, resource: resource as Resource });
  }
  return result;
}

/** The IAM statements attached to a function's role (its inline policies), each with array Action/Resource. */
export function roleStatements(
  template: Template,
  functionLogicalId: string,
): { Action: string[]; Resource: unknown[]; Condition?: unknown; Effect: string }[] {
  const fn = template.findResources('AWS::Lambda::Function')[functionLogicalId] as Resource;
  const roleId = ((fn.Properties?.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'] ?? [])[0];
  const list = (v: unknown) => (Array.isArray(v) ? v : [v]);
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) =>
      list((p as Resource).Properties?.Roles).some((r) => (r as { Ref?: string }).Ref === roleId),
    )
    .flatMap(
      (p) =>
        ((p as Resource).Properties?.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement,
    )
    .map((s) => ({
      ...(s as { Effect: string; Condition?: unknown }),
      Action: list(s.Action) as string[],
      Resource: list(s.Resource),
    }));
}

/** `{ "Fn::GetAtt": [logicalId, "Arn"] }` → logicalId; anything else → undefined. */
export function getAttTarget(value: unknown): string | undefined {
  const att = (value as { 'Fn::GetAtt'?: string[] })?.['Fn::GetAtt'];
  return Array.isArray(att) ? att[0] : undefined;
}

/**
 * Runs cdk-nag's AwsSolutions pack twice: once honouring acknowledgements (what `cdk synth` enforces) and once
 * ignoring them, to tell which acknowledgements are actually used.
 */
export function nagAudit(stack: HeadshotStudioStack) {
  const open = new AwsSolutionsChecks().validateScope(stack).violations;
  const raw = new AwsSolutionsChecks();
  (raw as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
  const findings = raw
    .validateScope(stack)
    .violations.flatMap((v) =>
      v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? '' })),
    );
  const acknowledgements: { path: string; id: string; reason: string }[] = [];
  const walk = (c: IConstruct) => {
    for (const entry of c.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        const rule = id.replace(/^annotation::/i, '');
        if (rule.startsWith('AwsSolutions-')) acknowledgements.push({ path: c.node.path, id: rule, reason });
      }
    }
    c.node.children.forEach(walk);
  };
  walk(stack);
  const unused = acknowledgements.filter(
    (a) => !findings.some((f) => f.rule === a.id && (f.path === a.path || f.path.startsWith(`${a.path}/`))),
  );
  return {
    open: open.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
    acknowledgements,
    unused,
  };
}

export { AwsSolutionsChecks };

/**
 * Asserts a production stack protects and retains the data that must outlive it: the table (retained on a stack
 * delete and on a replacement, with deletion protection) and the user pool (retained, deletion protection ACTIVE).
 */
export function expectProtectedTableAndUserPool(template: Template): void {
  template.hasResource('AWS::DynamoDB::GlobalTable', {
    DeletionPolicy: 'Retain',
    UpdateReplacePolicy: 'Retain',
  });
  template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
    Replicas: [{ DeletionProtectionEnabled: true }],
  });
  template.hasResource('AWS::Cognito::UserPool', {
    DeletionPolicy: 'Retain',
    Properties: Match.objectLike({ DeletionProtection: 'ACTIVE' }),
  });
}
