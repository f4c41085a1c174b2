import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { secretString } from './fields';

/**
 * Stripe Checkout and its webhook (docs/architecture.md, payments). The secrets come from Secrets Manager in the
 * cloud (common/secrets.ts fills them before the handler reads them); locally both keys are unset and the real
 * Stripe SDK talks to the local Checkout provider at STRIPE_API_BASE.
 */
const stripe = defineSettings(
  z
    .object({
      /** The secret API key (`sk_…`); blank or the placeholder counts as unset. */
      STRIPE_SECRET_KEY: secretString,
      /**
       * The signing secret (`whsec_…`) `POST /api/webhooks/stripe` verifies `Stripe-Signature` with: the endpoint's
       * secret from the Stripe dashboard, or `stripe listen`'s; locally `npm start` generates one per run.
       */
      STRIPE_WEBHOOK_SECRET: secretString,
      /**
       * Base URL of the local Checkout provider (e.g. `http://127.0.0.1:4242`), used only when `STRIPE_SECRET_KEY` is
       * unset, so a real key is never sent anywhere but Stripe. `npm start` sets it.
       */
      STRIPE_API_BASE: z.optional(z.url()),
    })
    .check(
      z.superRefine((env, ctx) => {
        // A key without its webhook secret would take payments whose credits never arrive.
        if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
          ctx.addIssue({
            code: 'custom',
            path: ['STRIPE_WEBHOOK_SECRET'],
            message: 'is required when STRIPE_SECRET_KEY is set',
          });
        }
      }),
    ),
);

/** Stripe's key, webhook secret and local base URL. */
export type StripeSettings = ReturnType<typeof stripe.load>;
/** The Stripe settings of this execution environment (parsed again once a secret arrives). */
export const stripeSettings = stripe.load;
/** Parses an environment's Stripe settings. @throws {ConfigError} naming each bad variable. */
export const parseStripeSettings = stripe.parse;
