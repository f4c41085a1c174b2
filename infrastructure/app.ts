/**
 * The CDK app (`cdk.json` → `npx tsx infrastructure/app.ts`): one stack, checked by cdk-nag's AwsSolutions rules at
 * synth (an unsuppressed finding fails `cdk synth`).
 *
 * Context: `stage` (default `dev`; `prod` turns on deletion protection and RETAIN), e.g.
 * `npx cdk deploy -c stage=prod`.
 */
import { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Validations } from 'aws-cdk-lib';
import { HeadshotStudioStack } from './stack';

const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');

new HeadshotStudioStack(app, `HeadshotStudio-${stage}`, {
  stage,
  description: `Headshot Studio (${stage}): professional AI headshots from selfies`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// cdk-nag 3 registers as a validation plugin (TOOLCHAIN.md), not as an Aspect.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
