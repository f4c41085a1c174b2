import { RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import type { SecretName } from '../../functions/catalogue';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { stackOutput } from './naming';
import { Construct } from 'constructs';
import { acknowledge } from './nag';

/**
 * The value every secret is created with. The handlers' secret loader treats it as "not configured" (the same as an
 * unset variable locally); `aws secretsmanager put-secret-value` replaces it, and later deploys keep the new value
 * (CloudFormation only rewrites a secret when this template value changes).
 */
export const SECRET_PLACEHOLDER = 'REPLACE_ME';

/**
 * The environment variable that carries each secret's ARN, and the plain variable (functions/config/) the loader
 * fills from it at cold start.
 */
export const SECRET_ENV = {
  stripeSecretKey: { arnVariable: 'STRIPE_SECRET_ARN', valueVariable: 'STRIPE_SECRET_KEY' },
  stripeWebhookSecret: { arnVariable: 'STRIPE_WEBHOOK_SECRET_ARN', valueVariable: 'STRIPE_WEBHOOK_SECRET' },
  openAiApiKey: { arnVariable: 'OPENAI_API_KEY_SECRET_ARN', valueVariable: 'OPENAI_API_KEY' },
} as const satisfies Record<SecretName, { arnVariable: string; valueVariable: string }>;

export type { SecretName };

const DESCRIPTIONS: Record<SecretName, string> = {
  stripeSecretKey: 'Stripe secret API key (sk_live_… or sk_test_…), a plain string',
  stripeWebhookSecret:
    'Stripe webhook signing secret of the /api/webhooks/stripe endpoint (whsec_…), a plain string',
  openAiApiKey: 'OpenAI API key (sk-…) for the openai image provider, a plain string',
};

const OUTPUT_IDS: Record<SecretName, string> = {
  stripeSecretKey: 'StripeSecretArn',
  stripeWebhookSecret: 'StripeWebhookSecretArn',
  openAiApiKey: 'OpenAiApiKeySecretArn',
};

/**
 * Secrets Manager secrets for the Stripe secret key, the Stripe webhook signing secret and the OpenAI API key
 * (docs/architecture.md §6). Created with a placeholder; the README says how to put the real values. Each value is a plain
 * string (SecretString), never JSON. Functions receive only the ARN (`*_ARN` variables) and read the value once per
 * cold start through the Parameters and Secrets Lambda Extension.
 */
export class Secrets extends Construct {
  readonly secrets: Record<SecretName, secretsmanager.Secret>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const make = (name: SecretName, constructId: string) => {
      const secret = new secretsmanager.Secret(this, constructId, {
        description: `Headshot Studio: ${DESCRIPTIONS[name]}`,
        secretStringValue: SecretValue.unsafePlainText(SECRET_PLACEHOLDER),
        removalPolicy: RemovalPolicy.DESTROY,
      });
      acknowledge(
        secret,
        'AwsSolutions-SMG4',
        'A third-party API credential: it is rolled in the Stripe/OpenAI dashboard and put here by an operator; Secrets Manager cannot rotate it.',
      );
      stackOutput(this, OUTPUT_IDS[name], secret.secretArn);
      return secret;
    };
    this.secrets = {
      stripeSecretKey: make('stripeSecretKey', 'StripeSecretKey'),
      stripeWebhookSecret: make('stripeWebhookSecret', 'StripeWebhookSecret'),
      openAiApiKey: make('openAiApiKey', 'OpenAiApiKey'),
    };
  }
}
