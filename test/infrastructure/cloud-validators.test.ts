import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_REGION } from '../../infrastructure/app-stacks';
import { SUPPORTED_REGIONS } from '../../infrastructure/constructs/regions';
import {
  EXAMPLE_ACCOUNT,
  synthesizeDeployment,
  type CfnTemplate,
  type DocumentedStage,
  type SynthesizedStack,
} from '../../infrastructure/report/synthesize';

/**
 * The templates checked by the cloud's own validators (issue 34): cfn-lint (AWS's CloudFormation linter, with each
 * region's resource schemas) over every stage docs/deploy.md deploys in every supported region, and asl-validator over
 * the synthesized state machine with its substitutions resolved.
 *
 * Each stage is synthesized twice, in-process with stub function code: in us-east-1 (one stack, the CloudFront web
 * ACL inside) and in eu-west-1 (the stack and its us-east-1 edge stack), the two shapes a deployment has. The stack of
 * any other supported region is eu-west-1's with that region's name and Parameters and Secrets layer ARN (CDK's region
 * facts; regions.test.ts checks each has one), so eu-west-1's stack is linted against every region's schemas but
 * us-east-1's, and the us-east-1 stack and the edge stacks against us-east-1's: where each is deployed. The dev stack
 * of eu-west-1's shape, whose resource types are all in prod's, is linted in eu-west-1 only (regionsToLint). One
 * cfn-lint process lints all six templates (each says its regions in its `cfn-lint` metadata).
 */
const REGION_SHAPES = [EDGE_REGION, 'eu-west-1'] as const;
const STAGES: readonly DocumentedStage[] = ['dev', 'prod'];

/** cfn-lint's version, or undefined when it is not on PATH. */
function cfnLintVersion(): string | undefined {
  const result = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** One finding of `cfn-lint --format json`. */
interface CfnLintMatch {
  Filename: string;
  Level: 'Error' | 'Warning' | 'Informational';
  Message: string;
  Rule: { Id: string };
  Location: { Path: (string | number)[] | null; Start: { LineNumber: number } };
}

/** asl-validator's export (the package ships no type declarations). */
type AslValidator = (
  definition: unknown,
  options?: { checkPaths?: boolean; checkArn?: boolean },
) => { isValid: boolean; errors: { 'Error code': string; Message: string }[] };
const aslValidator = createRequire(import.meta.url)('asl-validator') as AslValidator;

/** The regions CloudFormation deploys `stack` to, and so the schemas it is linted against. */
function lintRegions(stack: SynthesizedStack): readonly string[] {
  return stack.region === EDGE_REGION ? [EDGE_REGION] : SUPPORTED_REGIONS.filter((r) => r !== EDGE_REGION);
}

/** The resource types a template declares. */
const resourceTypes = (stack: SynthesizedStack) =>
  new Set(Object.values(stack.template.Resources).map((r) => r.Type));

/**
 * The regions to lint `stack` in, given the other stages' stacks of its shape. What differs between regions is which
 * resource types (and their properties' allowed values) a region's schemas have; a stage whose resource types are all
 * in another stage's stack of the same shape, linted in every region, is linted only in its own region: each region's
 * schemas cost cfn-lint about 0.5 s of CPU per template (decision 014, sixth round).
 */
function regionsToLint(stack: SynthesizedStack, sameShape: readonly SynthesizedStack[]): readonly string[] {
  const all = lintRegions(stack);
  if (all.length === 1) return all;
  const types = resourceTypes(stack);
  const covered = sameShape.some((other) => {
    const theirs = resourceTypes(other);
    return other !== stack && theirs.size > types.size && [...types].every((t) => theirs.has(t));
  });
  return covered ? [stack.region] : all;
}

/**
 * The state machine's definition file (a file asset of the cloud assembly) with each `${Name}` replaced as
 * CloudFormation does: a literal as is, a function's `Fn::GetAtt Arn` as that function's ARN.
 */
function resolvedDefinition(stack: SynthesizedStack): string {
  const [machine] = Object.values(stack.template.Resources).filter(
    (r) => r.Type === 'AWS::StepFunctions::StateMachine',
  );
  const props = machine!.Properties as {
    DefinitionS3Location: { Key: string };
    DefinitionSubstitutions: Record<string, unknown>;
  };
  const text = readFileSync(join(stack.assemblyDir, `asset.${props.DefinitionS3Location.Key}`), 'utf8');
  return text.replace(/\$\{(\w+)\}/g, (placeholder, name: string) => {
    const value = props.DefinitionSubstitutions[name];
    if (typeof value === 'string') return value;
    const [logicalId, attribute] =
      (value as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt'] ?? [];
    const fn = logicalId ? stack.template.Resources[logicalId] : undefined;
    if (fn?.Type !== 'AWS::Lambda::Function' || attribute !== 'Arn') return placeholder;
    const name_ = fn.Properties?.FunctionName;
    return `arn:aws:lambda:${stack.region}:${EXAMPLE_ACCOUNT}:function:${typeof name_ === 'string' ? name_ : logicalId}`;
  });
}

describe('the cloud’s own validators on the synthesized templates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cloud-validators-'));
  const stacks: { stage: DocumentedStage; stack: SynthesizedStack }[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(() => {
    for (const stage of STAGES) {
      for (const region of REGION_SHAPES) {
        for (const stack of synthesizeDeployment(stage, region, join(dir, `${stage}-${region}`))) {
          stacks.push({ stage, stack });
        }
      }
    }
  });

  it('synthesizes both stages in both shapes: us-east-1 alone, eu-west-1 with its us-east-1 edge stack', () => {
    expect(stacks.map(({ stack }) => `${stack.stackName} ${stack.region}`)).toEqual([
      'HeadshotStudio-dev us-east-1',
      'HeadshotStudio-dev eu-west-1',
      'HeadshotStudio-dev-eu-west-1-edge us-east-1',
      'HeadshotStudio-prod us-east-1',
      'HeadshotStudio-prod eu-west-1',
      'HeadshotStudio-prod-eu-west-1-edge us-east-1',
    ]);
  });

  it('cfn-lint finds no error in any template, in every supported region it deploys to', async (context) => {
    const version = cfnLintVersion();
    if (!version) {
      const line = 'cfn-lint is not on PATH (pip install cfn-lint): the templates were not linted';
      if (process.env.CI === 'true') throw new Error(`${line}, and CI requires it`);
      context.skip(line);
      return;
    }
    const sameShape = (stack: SynthesizedStack) =>
      stacks
        .map((s) => s.stack)
        .filter(
          (s) =>
            s.stackName.endsWith('-edge') === stack.stackName.endsWith('-edge') && s.region === stack.region,
        );
    const files = stacks.map(({ stage, stack }) => {
      const template: CfnTemplate = {
        ...stack.template,
        Metadata: {
          ...stack.template.Metadata,
          'cfn-lint': { config: { regions: regionsToLint(stack, sameShape(stack)) } },
        },
      };
      const file = join(dir, `lint-${stage}-${stack.region}-${basename(stack.templateFile)}`);
      writeFileSync(file, JSON.stringify(template));
      return file;
    });
    // No --regions: it would override each template's own list. Exit 2/4/6 only say errors/warnings were found.
    const { stdout } = await promisify(execFile)('cfn-lint', ['--format', 'json', '--', ...files], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
      if (typeof error.stdout === 'string' && error.stdout.trim().startsWith('['))
        return { stdout: error.stdout };
      throw new Error(`${version} failed (exit ${error.code}): ${error.stderr ?? ''}`);
    });
    const errors = (JSON.parse(stdout) as CfnLintMatch[])
      .filter((m) => m.Level === 'Error')
      .map((m) => `${basename(m.Filename)}:${m.Location.Start.LineNumber} ${m.Rule.Id} ${m.Message}`);
    expect(errors, `${version}`).toEqual([]);
  }, 600_000);

  it('asl-validator accepts the state machine of every stage, substitutions resolved', () => {
    const mains = stacks.filter(({ stack }) => !stack.stackName.endsWith('-edge'));
    expect(mains).toHaveLength(STAGES.length * REGION_SHAPES.length);
    for (const { stack } of mains) {
      const definition = resolvedDefinition(stack);
      expect(definition, stack.stackName).not.toMatch(/\$\{\w+\}/);
      const result = aslValidator(JSON.parse(definition), { checkPaths: true, checkArn: true });
      expect(result.errors, `${stack.stackName} in ${stack.region}`).toEqual([]);
      expect(result.isValid).toBe(true);
    }
  });
});
