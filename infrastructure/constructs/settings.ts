import { join } from 'node:path';
import type { Node } from 'constructs';
import {
  cognitoSecurity,
  FEATURE_PLANS,
  THREAT_PROTECTION_MODES,
  type CognitoFeaturePlan,
  type ThreatProtection,
} from './cognito-security';
import { DEFAULT_DEADLINE_MINUTES } from '../../functions/domain/generation-deadline';
import { REPO_ROOT } from './naming';
import { InvalidContextError } from './refusal';
import { productionOf } from './production';
import { legalEntityFromContext } from './legal-entity';
import type { LegalEntity } from '../../functions/domain/legal-entity';
import type { ImageQuality } from '../../functions/domain/openai-image-models';
import { MAX_CLIENT_TIMEOUT_SECONDS } from '../../functions/domain/provider-timeouts';
import { parseReservedConcurrency, type Reservations } from './reserved-concurrency';

/** Everything the stack takes from CDK context (`-c key=value` or `cdk.json`), validated. */
export interface StackSettings {
  /** `dev` by default. Lowercase letters, digits and hyphens. */
  stage: string;
  /**
   * Context `production` (`true`/`false`); default: true exactly when the stage is `prod` or `production`
   * ({@link productionOf}). Every prod guard reads it: deletion protection, retained buckets, table and user pool,
   * longer log retention, the offline provider's refusal, the mail requirement.
   */
  production: boolean;
  /** Custom domain of the site, with its ACM certificate in us-east-1; both or neither. */
  domainName?: string;
  certificateArn?: string;
  /** E-mail address subscribed to the alarm topic. */
  alarmEmail?: string;
  /** Shown on the payment result page (SUPPORT_EMAIL), the footers and the legal pages; required on production. */
  supportEmail: string;
  /**
   * The company the legal pages name (context `legalName`, `legalAddress`, `legalRegistration`, `legalJurisdiction`;
   * legal-entity.ts), written into `/config.json`. Required on production; unset elsewhere keeps the Draft notice.
   */
  legalEntity?: LegalEntity;
  /** `lite`, `essentials` or `plus`; unset: `plus` when threat protection is on, else `essentials`. */
  cognitoFeaturePlan: CognitoFeaturePlan;
  /** `off`, `audit` or `enforced` (needs `plus`); unset: `enforced` on prod, else `off` (cognito-security.ts). */
  cognitoThreatProtection: ThreatProtection;
  /** OPENAI_IMAGE_MODEL; unset: the handlers' default (functions/domain/openai-image-models.ts). */
  openAiImageModel?: string;
  /** OPENAI_IMAGE_QUALITY (`low` … `max`, as the model takes them); unset: `high`. */
  openAiImageQuality?: ImageQuality;
  /**
   * OPENAI_TIMEOUT_SECONDS, the OpenAI client's timeout (1-840 s); unset: the model and quality's documented worst
   * case × 1.5. The slot function's Lambda timeout and its Task's follow it (functions/domain/provider-timeouts.ts).
   */
  openAiTimeoutSeconds?: number;
  /** IMAGE_PROVIDER; unset: `openai` (the handlers' cloud default). `local` is refused when `production`. */
  imageProvider?: 'openai' | 'local';
  /** GENERATION_MAX_CONCURRENCY and the workflow's `${MaxConcurrency}` (1-6). */
  generationMaxConcurrency: number;
  /** PROVIDER_IMAGES_PER_MINUTE (> 0, may be fractional); unset: the handlers' default for the provider. */
  providerImagesPerMinute?: number;
  /** PROVIDER_MAX_CONCURRENCY (a whole number > 0); unset: `DEFAULT_OPENAI_MAX_CONCURRENCY` (4, decision 017). */
  providerMaxConcurrency?: number;
  /**
   * Context `reservedConcurrency` (`true`, `false` or `name=count,…`; reserved-concurrency.ts): reserved concurrency
   * for the Stripe webhook and the provider dispatcher, only once the account's quota was raised (decision 021).
   * Default none: a new account's quota refuses any (decision 017).
   */
  reservedConcurrency: Reservations;
  /** GENERATION_DEADLINE_MINUTES (default 30); the state machine's timeout follows from it. */
  generationDeadlineMinutes: number;
  /**
   * MAIL_FROM: the sender of the product's e-mails (ready, welcome, receipts), an address of an SES identity verified in the stack's
   * region (e.g. `headshots@example.com`). Unset: no e-mail is sent.
   */
  mailFrom?: string;
  /**
   * The SES identity `mailFrom` belongs to: a domain (default: mailFrom's domain) or the address itself. The mailing
   * functions may send only as this identity (its ARN is the IAM resource).
   */
  mailIdentity?: string;
  /** MAIL_CONFIGURATION_SET: optional SES configuration set for those e-mails. */
  mailConfigurationSet?: string;
  /**
   * The sender of Cognito's own e-mail (verification codes, password resets) through SES: default `mailFrom`.
   * Required on `prod`: Cognito's built-in mail sends at most 50 messages a day.
   */
  cognitoMailFrom?: string;
  /**
   * The SES identity Cognito's sender belongs to (Cognito's `EmailConfiguration.SourceArn`): default mailIdentity when
   * Cognito sends as mailFrom, else cognitoMailFrom's domain. A domain identity must be the sender's own domain.
   */
  cognitoMailIdentity?: string;
  /** The region of the SES identity Cognito sends from; default the stack's region. */
  sesRegion?: string;
  /** `aws` (default): the whole product; `localstack`: what LocalStack's community image runs. */
  target: 'aws' | 'localstack';
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** The built SPA. Default `dist/site`. */
  siteDir: string;
  /** The sharp layer directory (`nodejs/node_modules/…`). Default `dist/layers/sharp`. */
  nativeLayerDir: string;
  /** Tests only: inline stub code instead of esbuild bundles (fast synth). */
  stubFunctionCode: boolean;
}

export const DEFAULT_SUPPORT_EMAIL = 'support@headshot.studio';

/** A bare e-mail address (no display name), as SES identities and Cognito's sender take it. */
const MAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/**
 * Reads and validates the context.
 *
 * @throws {InvalidContextError} listing every invalid value, and what prod requires but lacks.
 */
export function settingsFromContext(node: Node): StackSettings {
  const get = (key: string): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const problems: string[] = [];
  const stage = get('stage') ?? 'dev';
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    problems.push(
      `stage "${stage}": lowercase letters, digits and hyphens, 1-20 characters, starting with a letter`,
    );
  }
  const production = productionOf(stage, get('production'));
  if (production === undefined) {
    problems.push(
      `production "${get('production')}": true or false (default: true on stage prod or production)`,
    );
  }
  const domainName = get('domainName');
  const certificateArn = get('certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    problems.push('domainName and certificateArn go together (the certificate must be in us-east-1)');
  }
  const planSet = get('cognitoFeaturePlan')?.toLowerCase();
  const planValid = planSet === undefined || (FEATURE_PLANS as readonly string[]).includes(planSet);
  if (!planValid) problems.push(`cognitoFeaturePlan "${planSet}": lite, essentials or plus`);
  const threatSet = get('cognitoThreatProtection')?.toLowerCase();
  const threatValid =
    threatSet === undefined || (THREAT_PROTECTION_MODES as readonly string[]).includes(threatSet);
  if (!threatValid) problems.push(`cognitoThreatProtection "${threatSet}": off, audit or enforced`);
  const security = cognitoSecurity(
    stage,
    planSet as CognitoFeaturePlan | undefined,
    threatSet as ThreatProtection | undefined,
    production === true,
  );
  if ('problem' in security && planValid && threatValid) problems.push(security.problem);
  const imageProvider = get('imageProvider');
  if (imageProvider !== undefined && !['openai', 'local'].includes(imageProvider)) {
    problems.push(`imageProvider "${imageProvider}": openai or local`);
  }
  if (imageProvider === 'local' && production) {
    problems.push(
      'imageProvider "local": the offline provider is refused on production (customers pay for it)',
    );
  }
  const quality = get('openaiImageQuality');
  if (quality !== undefined && !['low', 'medium', 'high', 'xhigh', 'max', 'auto'].includes(quality)) {
    problems.push(`openaiImageQuality "${quality}": low, medium, high, xhigh, max or auto`);
  }
  const openAiTimeout = get('openaiTimeoutSeconds');
  if (
    openAiTimeout !== undefined &&
    !(/^\d+$/.test(openAiTimeout) && +openAiTimeout >= 1 && +openAiTimeout <= MAX_CLIENT_TIMEOUT_SECONDS)
  ) {
    problems.push(
      `openaiTimeoutSeconds "${openAiTimeout}": whole seconds from 1 to ${MAX_CLIENT_TIMEOUT_SECONDS} (Lambda's 900 s less the work after the call)`,
    );
  }
  const concurrency = Number(get('generationMaxConcurrency') ?? 6);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 6) {
    problems.push(`generationMaxConcurrency "${get('generationMaxConcurrency')}": an integer from 1 to 6`);
  }
  const ipm = get('providerImagesPerMinute');
  if (ipm !== undefined && !(Number(ipm) > 0)) {
    problems.push(
      `providerImagesPerMinute "${ipm}": a number above 0 (your OpenAI tier's images per minute)`,
    );
  }
  const inFlight = get('providerMaxConcurrency');
  if (inFlight !== undefined && !(Number.isInteger(Number(inFlight)) && Number(inFlight) > 0)) {
    problems.push(`providerMaxConcurrency "${inFlight}": a whole number above 0`);
  }
  const reserved = parseReservedConcurrency(get('reservedConcurrency'));
  if ('problem' in reserved) problems.push(reserved.problem);
  const deadline = Number(get('generationDeadlineMinutes') ?? DEFAULT_DEADLINE_MINUTES);
  if (!(deadline > 0 && deadline <= 24 * 60)) {
    problems.push(
      `generationDeadlineMinutes "${get('generationDeadlineMinutes')}": minutes, above 0, at most 1440`,
    );
  }
  const mailFrom = get('mailFrom');
  if (mailFrom !== undefined && !MAIL_ADDRESS.test(mailFrom)) {
    problems.push(`mailFrom "${mailFrom}": an e-mail address of a verified SES identity`);
  }
  const mailConfigurationSet = get('mailConfigurationSet');
  if (mailConfigurationSet !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(mailConfigurationSet)) {
    problems.push(`mailConfigurationSet "${mailConfigurationSet}": letters, digits, _ and -`);
  }
  const cognitoMailFrom = get('cognitoMailFrom') ?? mailFrom;
  if (get('cognitoMailFrom') !== undefined && !MAIL_ADDRESS.test(get('cognitoMailFrom')!)) {
    problems.push(
      `cognitoMailFrom "${get('cognitoMailFrom')}": an e-mail address of a verified SES identity`,
    );
  }
  if (production && cognitoMailFrom === undefined) {
    problems.push(
      'prod needs mailFrom (or cognitoMailFrom): pass -c mailFrom=<an address at your SES-verified domain>, since Cognito must send its codes through SES (its own mail allows 50 a day)',
    );
  }
  const mailIdentity = get('mailIdentity') ?? (mailFrom && defaultIdentity(mailFrom));
  if (mailFrom && mailIdentity && MAIL_ADDRESS.test(mailFrom)) {
    const problem = identityProblem(mailFrom, mailIdentity, 'mailIdentity');
    if (problem) problems.push(problem);
  }
  const cognitoMailIdentity =
    get('cognitoMailIdentity') ??
    (cognitoMailFrom && (cognitoMailFrom === mailFrom ? mailIdentity : defaultIdentity(cognitoMailFrom)));
  if (cognitoMailFrom && cognitoMailIdentity && MAIL_ADDRESS.test(cognitoMailFrom)) {
    const problem = identityProblem(cognitoMailFrom, cognitoMailIdentity, 'cognitoMailIdentity', {
      exactDomain: true,
    });
    if (problem) problems.push(problem);
  }
  const supportEmail = get('supportEmail');
  if (supportEmail !== undefined && !MAIL_ADDRESS.test(supportEmail)) {
    problems.push(`supportEmail "${supportEmail}": an e-mail address customers can write to`);
  }
  const legal = legalEntityFromContext(get, production === true);
  problems.push(...legal.problems);
  const sesRegion = get('sesRegion');
  if (sesRegion !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(sesRegion)) {
    problems.push(`sesRegion "${sesRegion}": an AWS region, e.g. eu-west-1`);
  }
  const target = get('target') ?? 'aws';
  if (!['aws', 'localstack'].includes(target)) problems.push(`target "${target}": aws or localstack`);
  const logLevel = (get('logLevel') ?? 'INFO').toUpperCase();
  if (!['DEBUG', 'INFO', 'WARN', 'ERROR'].includes(logLevel)) {
    problems.push(`logLevel "${logLevel}": DEBUG, INFO, WARN or ERROR`);
  }
  if (problems.length > 0) throw new InvalidContextError(problems);
  return {
    stage,
    production: production === true,
    domainName,
    certificateArn,
    alarmEmail: get('alarmEmail'),
    supportEmail: supportEmail ?? DEFAULT_SUPPORT_EMAIL,
    legalEntity: legal.legalEntity,
    cognitoFeaturePlan: 'problem' in security ? 'essentials' : security.featurePlan,
    cognitoThreatProtection: 'problem' in security ? 'off' : security.threatProtection,
    openAiImageModel: get('openaiImageModel'),
    openAiImageQuality: quality as ImageQuality | undefined,
    openAiTimeoutSeconds: openAiTimeout === undefined ? undefined : Number(openAiTimeout),
    imageProvider: imageProvider as StackSettings['imageProvider'],
    generationMaxConcurrency: concurrency,
    providerImagesPerMinute: ipm === undefined ? undefined : Number(ipm),
    providerMaxConcurrency: inFlight === undefined ? undefined : Number(inFlight),
    reservedConcurrency: 'problem' in reserved ? {} : reserved.reservations,
    generationDeadlineMinutes: deadline,
    mailFrom,
    mailIdentity,
    mailConfigurationSet,
    cognitoMailFrom,
    cognitoMailIdentity,
    sesRegion,
    target: target as StackSettings['target'],
    logLevel: logLevel as StackSettings['logLevel'],
    siteDir: get('siteDir') ?? join(REPO_ROOT, 'dist', 'site'),
    nativeLayerDir: get('sharpLayerDir') ?? join(REPO_ROOT, 'dist', 'layers', 'sharp'),
    stubFunctionCode: get('stubFunctionCode') === 'true',
  };
}

/** The SES identity a sender belongs to by default: its domain (`headshots@example.com` → `example.com`). */
export function defaultIdentity(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Why `address` cannot send as the SES identity `identity`, or undefined when it can. An address identity covers that
 * address only; a domain identity covers its addresses and its subdomains' (Amazon SES Developer Guide, "Creating and
 * verifying identities": https://docs.aws.amazon.com/ses/latest/dg/creating-identities.html). With `exactDomain`
 * (Cognito) the domain must be the sender's own: CDK's `UserPoolEmail.withSES` refuses a `sesVerifiedDomain` other
 * than the `fromEmail`'s domain.
 */
export function identityProblem(
  address: string,
  identity: string,
  key: string,
  options: { exactDomain?: boolean } = {},
): string | undefined {
  const id = identity.toLowerCase();
  const sender = address.toLowerCase();
  const domain = defaultIdentity(sender);
  if (id.includes('@')) {
    if (!MAIL_ADDRESS.test(id)) return `${key} "${identity}": an e-mail address or a domain verified in SES`;
    return id === sender
      ? undefined
      : `${key} "${identity}": the address identity must be the sender itself (${address}), or name its domain`;
  }
  if (!/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/.test(id))
    return `${key} "${identity}": an e-mail address or a domain verified in SES`;
  if (domain === id) return undefined;
  if (domain.endsWith(`.${id}`) && !options.exactDomain) return undefined;
  return domain.endsWith(`.${id}`)
    ? `${key} "${identity}": Cognito sends only from the identity's own domain, not ${domain}; set ${key}=${domain} (verified in SES) or send from an address at ${id}`
    : `${key} "${identity}": ${address} is not in that identity; verify ${domain} (or the address) in SES and set ${key} to it`;
}
