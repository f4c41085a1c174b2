/**
 * The CDK app (`cdk.json` → `npx tsx infrastructure/app.ts`): the stack `HeadshotStudio-<stage>` (and, outside
 * us-east-1, `HeadshotStudio-<stage>-<region>-edge` in us-east-1 with the CloudFront web ACL), checked by cdk-nag's
 * AwsSolutions rules at synth (an unsuppressed finding fails `cdk synth`).
 *
 * The region is the CLI's (`CDK_DEFAULT_REGION`, from `AWS_REGION` or the profile); without one (an offline synth on
 * a machine with no AWS configuration) the stacks are synthesized for us-east-1.
 *
 * Context (`-c key=value`; see `settingsFromContext`):
 * - `stage` (default `dev`), `production` (`true`/`false`; default true exactly on stage `prod` or `production`:
 *   deletion protection, retained stateful resources, the offline provider refused, SES mail required);
 * - `domainName` + `certificateArn` (ACM, us-east-1): the site's custom domain;
 * - `alarmEmail`: subscribed to the alarm topic;
 * - `cognitoThreatProtection` (`off` | `audit` | `enforced`; default `enforced` on `prod`, else `off`) and
 *   `cognitoFeaturePlan` (`lite` | `essentials` | `plus`; default `plus` when threat protection is on);
 * - `supportEmail`, `openaiImageModel`, `imageProvider`
 *   (default `openai`; `local` is refused on `prod`), `generationMaxConcurrency`, `logLevel`;
 * - the legal entity: `legalName`, `legalAddress`, `legalRegistration`, `legalJurisdiction` (together), with
 *   `supportEmail`: the company the legal pages name, written into `/config.json`; required on `prod`, whose built
 *   pages must have been prerendered with the same values (`constructs/legal-entity.ts`);
 * - `openaiImageQuality` (default `high`), `openaiTimeoutSeconds` (default: the model and quality's worst case × 1.5):
 *   the slot function's Lambda timeout and its workflow Task's follow them;
 * - provider capacity: `providerImagesPerMinute` (your OpenAI tier's images per minute), `providerMaxConcurrency`
 *   (calls in flight), `generationDeadlineMinutes` (default 30; the state machine's timeout follows);
 * - `reservedConcurrency` (`false` by default; `true` or `name=count,…`): reserved concurrency for the Stripe webhook
 *   and the provider dispatcher, once the account's Lambda quota is above 100 + their sum (decision 021);
 * - e-mail: `mailFrom` (an address of a verified SES identity: the "headshots ready" e-mail, and Cognito's own mail
 *   unless `cognitoMailFrom` says otherwise; required on `prod`), `mailIdentity` (the SES identity it belongs to, a
 *   domain or the address; default: its domain), `cognitoMailIdentity` (the same for Cognito's sender), and
 *   `mailConfigurationSet` (optional), `sesRegion` (where Cognito's identity is verified; default the stack's region);
 * - `siteDir` (default `dist/site`), `sharpLayerDir` (default `dist/layers/sharp`): synth refuses real code without
 *   them;
 * - `target=localstack`: the LocalStack community profile instead (`infrastructure/localstack-stack.ts`;
 *   docs/local-stack.md, "Run with LocalStack");
 * - `stubFunctionCode=true`: tests only — inline stub code instead of esbuild bundles.
 *
 * A refusal (`SynthRefusal`: `IncompleteBuildError`, `InvalidContextError`, …) prints `Error: <what to do>` on one
 * line to stderr and exits 1, without a stack trace.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addStacks, EDGE_REGION } from './app-stacks';
import { SynthRefusal } from './constructs/refusal';
import { settingsFromContext } from './constructs/settings';
import { LocalStackStack } from './localstack-stack';

function buildApp(): void {
  const app = new App();
  const settings = settingsFromContext(app.node);
  const env = {
    account: process.env.CDK_DEFAULT_ACCOUNT,
    region: process.env.CDK_DEFAULT_REGION ?? EDGE_REGION,
  };

  if (settings.target === 'localstack') {
    // A playground on LocalStack, never a production deployment: cdk-nag's production rules do not apply.
    new LocalStackStack(app, `HeadshotStudio-${settings.stage}`, {
      stage: settings.stage,
      stubFunctionCode: settings.stubFunctionCode,
      nativeLayerDir: settings.nativeLayerDir,
      env,
      description: `Headshot Studio (${settings.stage}) on LocalStack: table, buckets, functions, state machine`,
    });
  } else {
    addStacks(app, settings, env);
    // cdk-nag 3 registers as a validation plugin (docs/toolchain.md), not as an Aspect.
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  }
  // Which guards apply is said at every synth, so a stage name that silently loses them cannot go unnoticed; said
  // once the stacks are built, so a refusal stays the one line that says what to do.
  process.stderr.write(
    `Stage ${settings.stage}: production=${settings.production} (${
      app.node.tryGetContext('production') === undefined
        ? `default for stage "${settings.stage}"`
        : 'from -c production'
    }); ${settings.production ? 'deletion protection and retention on' : 'resources are destroyed with the stack'}\n`,
  );
}

try {
  buildApp();
} catch (error) {
  // A refusal the operator can act on (missing build, invalid or missing context) is one line that says what to do;
  // anything else is a bug in the app and keeps its stack trace. Exiting here also skips the synthesis the App
  // would run when the process ends.
  if (!(error instanceof SynthRefusal)) throw error;
  process.stderr.write(`Error: ${error.message}\n`);
  process.exit(1);
}
