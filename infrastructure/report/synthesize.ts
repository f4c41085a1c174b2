/**
 * The templates of one deployment (a stage in a region) as `cdk synth` makes them, synthesized in this process with
 * stub function code (no esbuild, no built site or layer needed: seconds, not minutes). What the cost report counts
 * and what cfn-lint and asl-validator check (test/infrastructure/cloud-validators.test.ts); the function bundles
 * themselves are checked by test/infrastructure/synth.test.ts.
 */
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { addStacks } from '../app-stacks';
import { settingsFromContext } from '../constructs/settings';

/** The stages the docs deploy (docs/deploy.md): `dev`, and `prod` with its required mail and legal context. */
export type DocumentedStage = 'dev' | 'prod';

/**
 * The context docs/deploy.md passes for each stage (`PROD=(…)` and `LEGAL=(…)` in "A production stage"; `dev` takes
 * none): example addresses and an example company, which give the templates the same resources a real deploy has (the
 * alarm subscription, the SES identity) and meet prod's required context.
 */
export const STAGE_CONTEXT: Readonly<Record<DocumentedStage, Readonly<Record<string, string>>>> = {
  dev: {},
  prod: {
    mailFrom: 'headshots@example.com',
    mailIdentity: 'example.com',
    alarmEmail: 'ops@example.com',
    legalName: 'Example Headshots Ltd',
    legalAddress: '1 Example Street, London EC1A 1AA, United Kingdom',
    legalRegistration: 'Company number 01234567',
    legalJurisdiction: 'England and Wales',
    supportEmail: 'support@example.com',
  },
};

/** The account id the templates are synthesized for (it appears only in ARNs and bucket names). */
export const EXAMPLE_ACCOUNT = '123456789012';

/** A CloudFormation resource as synthesized. */
export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  DependsOn?: string | string[];
}

/** A synthesized CloudFormation template (the parts read here). */
export interface CfnTemplate {
  Resources: Record<string, TemplateResource>;
  Metadata?: Record<string, unknown>;
  [section: string]: unknown;
}

/** One stack of a deployment. */
export interface SynthesizedStack {
  /** `HeadshotStudio-<stage>` or `HeadshotStudio-<stage>-<region>-edge`. */
  stackName: string;
  /** Where CloudFormation deploys it: the stage's region, or us-east-1 for the edge stack. */
  region: string;
  template: CfnTemplate;
  /** The template file in the cloud assembly (absolute path). */
  templateFile: string;
  /** The cloud assembly's directory, where the stack's file assets are (`asset.<hash>.<ext>`). */
  assemblyDir: string;
}

/**
 * Synthesizes `stage` in `region` as `addStacks` does for `cdk synth` (without cdk-nag, which synth.test.ts runs), with
 * {@link STAGE_CONTEXT} plus `extraContext`, into `outdir`.
 *
 * @returns the main stack first, then the edge stack when `region` is not us-east-1
 * @throws {UnsupportedRegionError} for a region outside infrastructure/constructs/regions.ts; any other
 *   `SynthRefusal` for invalid context
 */
export function synthesizeDeployment(
  stage: DocumentedStage,
  region: string,
  outdir: string,
  extraContext: Record<string, string> = {},
): SynthesizedStack[] {
  const nowhere = join(outdir, 'no-build');
  const app = new App({
    outdir,
    context: {
      stage,
      ...STAGE_CONTEXT[stage],
      stubFunctionCode: 'true',
      siteDir: nowhere,
      sharpLayerDir: nowhere,
      ...extraContext,
    },
  });
  const { main, edge } = addStacks(app, settingsFromContext(app.node), { account: EXAMPLE_ACCOUNT, region });
  const assembly = app.synth();
  return [main, ...(edge ? [edge] : [])].map((stack) => {
    const artifact = assembly.getStackByName(stack.stackName);
    return {
      stackName: stack.stackName,
      region: stack.region,
      template: artifact.template as CfnTemplate,
      templateFile: join(assembly.directory, artifact.templateFile),
      assemblyDir: assembly.directory,
    };
  });
}
