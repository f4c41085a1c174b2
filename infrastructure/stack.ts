import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, RemovalPolicy, Stack, Token, type StackProps } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { routes as routeTable, type RouteDefinition } from '../functions/http/routes';
import { ORIGIN_VERIFY_HEADER, ORIGIN_VERIFY_VARIABLE } from '../functions/http/origin-verify';
import { DEFAULT_OPENAI_MAX_CONCURRENCY } from '../functions/config/image-provider';
import { DEFAULT_DEADLINE_MINUTES, generationTimeBudget } from '../functions/domain/generation-deadline';
import {
  DEFAULT_OPENAI_IMAGE_MODEL,
  DEFAULT_OPENAI_IMAGE_QUALITY,
} from '../functions/domain/openai-image-models';
import { FINISH_TASK_SECONDS, providerTimeouts } from '../functions/domain/provider-timeouts';
import { withSlotTimeout } from './constructs/slot-timeout';
import { catalogue as functionCatalogue, type FunctionEntry } from '../functions/catalogue';
import { Alarms } from './constructs/alarms';
import { Analytics } from './constructs/analytics';
import { Api } from './constructs/api';
import { Auth, cognitoTriggers } from './constructs/auth';
import { Data } from './constructs/data';
import { grantSendEmail, mailEvents } from './constructs/mail-events';
import { Firewall } from './constructs/firewall';
import { acknowledge } from './constructs/nag';
import { Functions } from './constructs/functions';
import { Monitoring } from './constructs/monitoring';
import { REPO_ROOT, stackOutput, tagStage } from './constructs/naming';
import { Reliability } from './constructs/reliability';
import { Secrets } from './constructs/secrets';
import { DEFAULT_SUPPORT_EMAIL, defaultIdentity, type StackSettings } from './constructs/settings';
import { logRetentionOf, productionGuards } from './constructs/production';
import { Site } from './constructs/site';
import { assertDeployable } from './constructs/deployable';
import { Storage } from './constructs/storage';
import { Workflow } from './constructs/workflow';
import { Queues } from './constructs/queues';
import { reserveConcurrency } from './constructs/reserved-concurrency';
import { queues as queueCatalogue, type QueueDefinition } from '../functions/queue-catalogue';

export { assertDeployable, IncompleteBuildError } from './constructs/deployable';

/** The generation workflow's definition (docs/architecture.md §4). */
export const GENERATION_ASL = join(REPO_ROOT, 'statemachines', 'generation.asl.json');

/** Properties of {@link HeadshotStudioStack}: the context settings (see `settingsFromContext`) plus test seams. */
export interface HeadshotStudioStackProps extends StackProps, Partial<Omit<StackSettings, 'stage'>> {
  /** Deployment stage, e.g. `dev` or `prod`; `production` (default from the stage) retains and protects resources. */
  stage: string;
  /** The API route table; default: `functions/http/routes.ts`. */
  routes?: readonly RouteDefinition[];
  /** The function catalogue; default: `functions/catalogue.ts`. */
  catalogue?: readonly FunctionEntry[];
  /** The queue catalogue; default: `functions/queue-catalogue.ts`. */
  queues?: readonly QueueDefinition[];
  /** The workflow's ASL file; default `statemachines/generation.asl.json` (skipped with a warning when missing). */
  workflowDefinition?: string;
  /** Where handler modules live; default `functions/`. */
  functionsDir?: string;
  /** Whether the stack serves the SPA (CloudFront); default true. */
  withSite?: boolean;
  /** The CloudFront web ACL, when it lives in another stack (us-east-1); default: created here (us-east-1 only). */
  webAclArn?: string;
  /** That web ACL's name (a literal): its metrics' `WebACL` dimension, which the dashboard reads in us-east-1. */
  webAclName?: string;
}

/**
 * The one stack of Headshot Studio (docs/architecture.md §6). It only wires small constructs together; each holds its own
 * defaults: Data (table), Storage (buckets), Secrets, Functions (every Lambda, with least-privilege grants), Workflow
 * (state machine from the ASL file), Auth (user pool + client + triggers), Api (HTTP API from the route table), Site
 * (CloudFront + S3 + config.json) and Alarms.
 */
export class HeadshotStudioStack extends Stack {
  readonly functions: Functions;
  readonly workflow?: Workflow;
  readonly site: Site;
  readonly reliability: Reliability;
  readonly queues: Queues;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: HeadshotStudioStackProps) {
    super(scope, id, props);
    tagStage(this, props.stage);
    const prod = productionGuards(props);
    const logRetention = logRetentionOf(prod);
    const routes = props.routes ?? routeTable;
    const supportEmail = props.supportEmail ?? DEFAULT_SUPPORT_EMAIL;
    const maxConcurrency = props.generationMaxConcurrency ?? 6;
    const deadlineMinutes = props.generationDeadlineMinutes ?? DEFAULT_DEADLINE_MINUTES;
    // The slot's timeouts follow the model and quality (functions/domain/provider-timeouts.ts): the client's goes to
    // the handlers, the Lambda's to the slot function, the Task's into the workflow.
    const openAiModel = props.openAiImageModel ?? DEFAULT_OPENAI_IMAGE_MODEL;
    const openAiQuality = props.openAiImageQuality ?? DEFAULT_OPENAI_IMAGE_QUALITY;
    const slotTimeouts = providerTimeouts(openAiModel, openAiQuality, props.openAiTimeoutSeconds);
    const catalogue = withSlotTimeout(
      props.catalogue ?? functionCatalogue,
      slotTimeouts,
      props.imageProvider ?? 'openai',
    );
    // One time budget (functions/domain/generation-deadline.ts): the execution outlives a call admitted just before
    // the deadline by the slot's worst case (the call and its finishing) and the finishing steps, whatever the model.
    const timeBudget = generationTimeBudget(deadlineMinutes, slotTimeouts.slotSeconds);
    const cognitoMailFrom = props.cognitoMailFrom ?? props.mailFrom;
    const mailIdentity = props.mailFrom && (props.mailIdentity ?? defaultIdentity(props.mailFrom));
    const cognitoMailIdentity =
      cognitoMailFrom &&
      (props.cognitoMailIdentity ??
        (cognitoMailFrom === props.mailFrom ? mailIdentity : defaultIdentity(cognitoMailFrom)));
    if (!props.stubFunctionCode) {
      assertDeployable({
        siteDir: props.siteDir ?? join(REPO_ROOT, 'dist', 'site'),
        nativeLayerDir: props.nativeLayerDir ?? join(REPO_ROOT, 'dist', 'layers', 'sharp'),
        needsLayer: catalogue
          .filter((f) => !f.localOnly && f.assets.includes('sharp-layer'))
          .map((f) => f.name),
        needsSite: props.withSite ?? true,
        // Production's prerendered legal pages must name the company config.json names (issue 35 item 2).
        legal: prod ? { legalEntity: props.legalEntity, supportEmail } : undefined,
      });
    }

    const mailEventSet = props.mailConfigurationSet
      ? undefined
      : mailEvents(this, props.stage, cognitoMailFrom);
    const mailConfigurationSet = props.mailConfigurationSet ?? mailEventSet?.name;
    const data = new Data(this, 'Data', { stage: props.stage, production: prod });
    const storage = new Storage(this, 'Storage', { stage: props.stage, production: prod });
    const secrets = new Secrets(this, 'Secrets');

    this.functions = new Functions(this, 'Functions', {
      routes,
      functions: catalogue,
      environment: {
        // The handlers know they run in the cloud (image provider `openai` by default) and refuse `local` on prod.
        STAGE: props.stage,
        PRODUCTION: String(prod),
        TABLE_NAME: data.table.tableName,
        UPLOADS_BUCKET: storage.uploads.bucketName,
        RESULTS_BUCKET: storage.results.bucketName,
        SUPPORT_EMAIL: supportEmail,
        GENERATION_MAX_CONCURRENCY: String(maxConcurrency),
        GENERATION_DEADLINE_MINUTES: String(deadlineMinutes),
        // Every function: the admission point's leases outlast the slot's timeout too.
        OPENAI_IMAGE_MODEL: openAiModel,
        OPENAI_IMAGE_QUALITY: openAiQuality,
        OPENAI_TIMEOUT_SECONDS: String(slotTimeouts.clientSeconds),
        ...(props.providerImagesPerMinute === undefined
          ? {}
          : { PROVIDER_IMAGES_PER_MINUTE: String(props.providerImagesPerMinute) }),
        // Always said, so the template shows what the provider calls may hold of the account's Lambda concurrency
        // (decision 017: a new account's quota is 10). Every provider call is an invocation, whatever the provider.
        PROVIDER_MAX_CONCURRENCY: String(props.providerMaxConcurrency ?? DEFAULT_OPENAI_MAX_CONCURRENCY),
        ...(props.mailFrom ? { MAIL_FROM: props.mailFrom } : {}),
        ...(mailConfigurationSet ? { MAIL_CONFIGURATION_SET: mailConfigurationSet } : {}),
        LOG_LEVEL: props.logLevel ?? 'INFO',
      },
      openAiEnvironment: {
        ...(props.imageProvider ? { IMAGE_PROVIDER: props.imageProvider } : {}),
      },
      table: data.table,
      uploads: storage.uploads,
      results: storage.results,
      secrets,
      logRetention,
      nativeLayerDir: props.nativeLayerDir ?? join(REPO_ROOT, 'dist', 'layers', 'sharp'),
      stubCode: props.stubFunctionCode,
      functionsDir: props.functionsDir,
    });

    reserveConcurrency(props.reservedConcurrency ?? {}, (name) => this.functions.get(name)?.fn.function);
    // Every function that sends mail (the ready e-mail, the welcome, the receipts) sends as the one identity and
    // configuration set, from the one address.
    const mailers = this.functions.all.filter((f) => f.entry.access.mail);
    if (props.mailFrom && mailIdentity) {
      for (const mailer of mailers)
        grantSendEmail(mailer.fn.function, {
          identityArn: this.formatArn({ service: 'ses', resource: 'identity', resourceName: mailIdentity }),
          configurationSetArn: mailConfigurationSet
            ? this.formatArn({
                service: 'ses',
                resource: 'configuration-set',
                resourceName: mailConfigurationSet,
              })
            : undefined,
          from: props.mailFrom,
        });
    } else if (mailers.length > 0) {
      Annotations.of(this).addWarningV2(
        'headshot-studio:mail-off',
        'No mailFrom in the context: the "headshots ready", welcome and receipt e-mails are not sent (see docs/deploy.md, "E-mail (Amazon SES)").',
      );
    }

    const definition = props.workflowDefinition ?? GENERATION_ASL;
    if (existsSync(definition)) {
      this.workflow = new Workflow(this, 'Workflow', {
        definitionFile: definition,
        functions: new Map(this.functions.all.map((f) => [f.entry.name, f.fn.function])),
        values: {
          TableName: data.table.tableName,
          UploadsBucket: storage.uploads.bucketName,
          ResultsBucket: storage.results.bucketName,
          MaxConcurrency: String(maxConcurrency),
          ExecutionTimeoutSeconds: String(timeBudget.executionTimeoutSeconds),
          GenerateHeadshotTimeoutSeconds: String(slotTimeouts.taskSeconds),
          FinishHeadshotTimeoutSeconds: String(FINISH_TASK_SECONDS),
        },
        maxTimeoutSeconds: timeBudget.executionTimeoutSeconds,
        logRetention,
        onExecutionEnded: this.functions.get('generation-execution-ended')?.fn.function,
      });
      this.functions.grantWorkflow(this.workflow.stateMachine);
    } else {
      Annotations.of(this).addWarningV2(
        'headshot-studio:workflow-missing',
        `${definition} does not exist yet: no state machine is deployed and STATE_MACHINE_ARN is unset.`,
      );
    }

    const analytics = new Analytics(this, 'Analytics', {
      stage: props.stage,
      production: prod,
      logBucket: storage.logBucket,
    });
    this.functions.grantAnalytics(analytics);

    const auth = new Auth(this, 'Auth', {
      stage: props.stage,
      production: prod,
      featurePlan: props.cognitoFeaturePlan,
      threatProtection: props.cognitoThreatProtection,
      logRetention,
      ses: cognitoMailFrom
        ? {
            fromEmail: cognitoMailFrom,
            identity: cognitoMailIdentity,
            sesRegion: props.sesRegion ?? this.region,
            configurationSet: mailConfigurationSet,
          }
        : undefined,
      triggers: cognitoTriggers(this.functions.all),
    });
    // The pool names its configuration set by the literal name, which makes no dependency: without this one
    // CloudFormation may create the pool before the set its mail goes through.
    if (mailEventSet) auth.userPool.node.addDependency(mailEventSet.set);

    // "Delete my account" deletes the caller's Cognito user: what the catalogue declares, on this pool only.
    this.functions.grantUserPool(auth.userPool.userPoolArn);
    // Public routes that recognise a signed-in caller verify the token themselves, against this pool and client.
    this.functions.addHttpEnvironment('COGNITO_USER_POOL_ID', auth.userPool.userPoolId);
    this.functions.addHttpEnvironment('COGNITO_CLIENT_ID', auth.client.userPoolClientId);

    // Only requests that came through CloudFront (and its web ACL) carry this value; the handlers refuse others.
    const originVerify = new secretsmanager.Secret(this, 'OriginVerify', {
      description: 'Headshot Studio: the header value CloudFront adds to API requests (x-origin-verify)',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(
      originVerify,
      'AwsSolutions-SMG4',
      'Shared only by CloudFront (origin custom header) and the API functions (environment), both set at deploy: rotating means a new value and a deploy, which a rotation Lambda cannot do.',
    );
    const originVerifyValue = originVerify.secretValue.unsafeUnwrap();
    this.functions.addHttpEnvironment(ORIGIN_VERIFY_VARIABLE, originVerifyValue);

    const webhookPath = routes.find((r) => r.auth === 'stripe-signature')?.path ?? '/api/webhooks/';
    if (!props.webAclArn && !Token.isUnresolved(this.region) && this.region !== 'us-east-1') {
      throw new Error(
        `A CloudFront web ACL must be created in us-east-1, not ${this.region}: pass webAclArn (see infrastructure/app-stacks.ts)`,
      );
    }
    const firewall = props.webAclArn
      ? undefined
      : new Firewall(this, 'Firewall', {
          name: Token.isUnresolved(this.region) ? this.stackName : `${this.stackName}-${this.region}`,
          webhookPath,
          logRetention,
        });
    const webAclArn = props.webAclArn ?? firewall!.webAcl.attrArn;

    const domain =
      props.domainName && props.certificateArn
        ? { domainName: props.domainName, certificateArn: props.certificateArn }
        : undefined;
    const api = new Api(this, 'Api', {
      routes,
      handlers: new Map([...this.functions.http].map(([handler, f]) => [handler, f.fn.function])),
      userPool: auth.userPool,
      client: auth.client,
      corsOrigin: domain && `https://${domain.domainName}`,
      logRetention,
    });

    this.site = new Site(this, 'Site', {
      siteDir: props.siteDir ?? join(REPO_ROOT, 'dist', 'site'),
      api: api.httpApi,
      runtimeConfig: {
        region: this.region,
        userPoolId: auth.userPool.userPoolId,
        userPoolClientId: auth.client.userPoolClientId,
        cognitoEndpoint: null,
        apiBase: '/api',
        supportEmail,
        legalEntity: props.legalEntity ?? null,
        stage: props.stage,
        authFlowType: 'USER_SRP_AUTH',
      },
      logBucket: storage.logBucket,
      uploadsEndpoint: storage.uploadsEndpoint,
      resultsEndpoint: storage.resultsEndpoint,
      domain,
      webAclArn,
      originVerifyHeader: { name: ORIGIN_VERIFY_HEADER, value: originVerifyValue },
    });
    this.functions.addEnvironment('SITE_ORIGIN', this.site.origin);
    storage.allowSiteOrigin(this.site.origin);

    const alarms = new Alarms(this, 'Alarms', {
      email: props.alarmEmail,
      httpApi: api.httpApi,
      stateMachine: this.workflow?.stateMachine,
      functions: this.functions.all.map((f) => f.fn.function),
    });
    this.reliability = new Reliability(this, 'Reliability', {
      topic: alarms.topic,
      stage: props.stage,
      scheduled: this.functions.all.flatMap(({ entry, fn }) =>
        entry.schedule ? [{ name: entry.name, fn: fn.function, schedule: entry.schedule }] : [],
      ),
      compensator: this.workflow ? this.functions.get('generation-execution-ended')?.fn.function : undefined,
      nonApiFunctions: this.functions.all
        .filter(({ entry }) => entry.kind !== 'http' && entry.kind !== 'webhook')
        .map(({ entry, fn }) => ({ name: entry.name, fn: fn.function })),
    });

    // The SQS queues, their dead-letter queues and event source mappings, from the queue catalogue.
    const queues = props.queues ?? queueCatalogue;
    this.queues = new Queues(this, 'Queues', { queues, functions: this.functions.all, topic: alarms.topic });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      topic: alarms.topic,
      stage: props.stage,
      table: data.table,
      api,
      workflow: this.workflow,
      deployed: this.functions.all,
      deliveryStreamName: analytics.stream.deliveryStreamName,
      mailConfigurationSet,
      distributionId: this.site.distribution.distributionId,
      webAclName: firewall?.webAcl.name ?? props.webAclName,
      userPoolBlocks: auth.firewall.blockedRequests(),
      otherAlarms: () => [...alarms.alarms, ...this.reliability.alarms],
    });

    const webhook = routes.find((r) => r.auth === 'stripe-signature');
    if (webhook) {
      stackOutput(
        this,
        'StripeWebhookUrl',
        `${this.site.origin}${webhook.path}`,
        'Register this endpoint in the Stripe dashboard (Developers → Webhooks)',
      );
    }
  }
}
