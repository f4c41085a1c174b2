/**
 * The CDK app (`cdk.json` → `npx tsx infrastructure/app.ts`): one stack, `HeadshotStudio-<stage>`, checked by
 * cdk-nag's AwsSolutions rules at synth (an unsuppressed finding fails `cdk synth`).
 *
 * Context (`-c key=value`; see `settingsFromContext`):
 * - `stage` (default `dev`; `prod` turns on deletion protection and RETAIN);
 * - `domainName` + `certificateArn` (ACM, us-east-1): the site's custom domain;
 * - `alarmEmail`: subscribed to the alarm topic;
 * - `supportEmail`, `cognitoFeaturePlan` (`lite` | `essentials` | `plus`), `openaiImageModel`, `imageProvider`,
 *   `generationMaxConcurrency`, `logLevel`;
 * - provider capacity: `providerImagesPerMinute` (your OpenAI tier's images per minute), `providerMaxConcurrency`
 *   (calls in flight), `generationDeadlineMinutes` (default 30; the state machine's timeout follows);
 * - the "headshots ready" e-mail: `mailFrom` (an address of a verified SES identity), `mailIdentity` (default: its
 *   domain), `mailConfigurationSet` (optional);
 * - `siteDir` (default `dist/site`), `sharpLayerDir` (default `dist/layers/sharp`);
 * - `stubFunctionCode=true`: tests only — inline stub code instead of esbuild bundles.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { settingsFromContext } from './constructs/settings';
import { HeadshotStudioStack } from './stack';

const app = new App();
const settings = settingsFromContext(app.node);

new HeadshotStudioStack(app, `HeadshotStudio-${settings.stage}`, {
  ...settings,
  description: `Headshot Studio (${settings.stage}): professional AI headshots from selfies`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// cdk-nag 3 registers as a validation plugin (docs/toolchain.md), not as an Aspect.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
