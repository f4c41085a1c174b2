import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployedFunctions } from '../../functions/catalogue';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';
import {
  LOCALSTACK_RESOURCE_TYPES,
  LocalStackStack,
  localStackFunctionName,
} from '../../infrastructure/localstack-stack';
import { IncompleteBuildError } from '../../infrastructure/stack';
import { NOWHERE } from './helpers';

/*
 * The `-c target=localstack` profile, checked the way a new user would run docs/local-stack.md: the template may
 * hold only what LocalStack's community image deploys, and every name the doc invokes exists in it. (No Docker
 * here, so no LocalStack: the template is what can be checked.)
 */

const DOC = readFileSync(join(REPO_ROOT, 'docs', 'local-stack.md'), 'utf8');
const section = DOC.slice(
  DOC.indexOf('## Run with LocalStack'),
  DOC.indexOf('\n## ', DOC.indexOf('## Run with LocalStack') + 5),
);

describe('the LocalStack profile', () => {
  let template: Template;
  let stack: LocalStackStack;
  beforeAll(() => {
    stack = new LocalStackStack(new App(), 'HeadshotStudio-local', {
      stage: 'local',
      stubFunctionCode: true,
    });
    template = Template.fromStack(stack);
  });

  it('holds only resource types the community image supports: no CloudFront, WAF, Cognito, HTTP API or layers', () => {
    const types = new Set(
      Object.values(template.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type),
    );
    for (const type of types) expect(LOCALSTACK_RESOURCE_TYPES, type).toContain(type);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      expect((fn.Properties as Record<string, unknown>).Layers).toBeUndefined();
    }
  });

  it('deploys every catalogue function under the name docs/local-stack.md invokes, and the state machine', () => {
    const names = Object.values(template.findResources('AWS::Lambda::Function')).map(
      (f) => (f.Properties as { FunctionName: string }).FunctionName,
    );
    expect(names.sort()).toEqual(
      deployedFunctions.map((f) => localStackFunctionName('HeadshotStudio-local', f)).sort(),
    );
    template.resourceCountIs('AWS::StepFunctions::StateMachine', 1);
    const invoked = [...section.matchAll(/--function-name (\S+)/g)].map((m) => m[1]!);
    expect(invoked.length).toBeGreaterThan(0);
    for (const name of invoked) expect(names, name).toContain(name);
    for (const [, file] of section.matchAll(/fileb:\/\/(\S+\.json)/g)) {
      expect(() => readFileSync(join(REPO_ROOT, file!)), file).not.toThrow();
    }
    expect(section).toContain('-c target=localstack');
    expect(section).toMatch(/LocalStack Pro/);
  });

  it('runs the offline image provider with path-style S3, and no secret', () => {
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      const env = (fn.Properties as { Environment: { Variables: Record<string, unknown> } }).Environment
        .Variables;
      expect(env).toMatchObject({ IMAGE_PROVIDER: 'local', S3_FORCE_PATH_STYLE: 'true' });
      expect(Object.keys(env).some((k) => k.endsWith('_ARN') && k !== 'STATE_MACHINE_ARN')).toBe(false);
    }
  });

  it('refuses real code without the sharp modules the image functions need', () => {
    expect(
      () =>
        new LocalStackStack(new App(), 'HeadshotStudio-local', { stage: 'local', nativeLayerDir: NOWHERE }),
    ).toThrow(IncompleteBuildError);
  });
});
