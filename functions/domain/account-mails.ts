import { SIGNUP_BONUS_CREDITS } from './credits';
import { generationCost } from './generation-cost';
import { mailMessage, plural, type MailContent } from './mail-layout';
import { findPack } from './packs';
import type { SignupBonus } from './signup-bonus';
import { HEADSHOTS_PER_GENERATION } from './slots';

/**
 * The welcome and receipt e-mails (docs/product-spec.md "E-mails", issue 35): transactional messages about the
 * customer's account and purchase, with no promotion in them, so they carry no unsubscribe link and are sent
 * whatever the dashboard's "E-mail me when my headshots are ready" says (docs/operations.md "E-mails"). Pure: the
 * use cases send what these return.
 */

/** Where the e-mails' links go, each an absolute URL on the site. */
export interface SiteLinks {
  /** The dashboard, e.g. `https://headshots.example.com/dashboard` (the purchase history is on it). */
  dashboardUrl: string;
  /** The generator wizard, e.g. `https://headshots.example.com/generator`. */
  generatorUrl: string;
  /** The support address customers write to. */
  supportEmail: string;
}

/** What the welcome e-mail says about a new account. */
export interface WelcomeMailInput {
  /** The customer's name as the app shows it. */
  displayName: string;
  /** Whether the account got the free credits, and why not (adapters/user-creation.ts). */
  signupBonus: SignupBonus;
}

const NO_BONUS: Record<Exclude<SignupBonus, 'granted'>, string> = {
  'already-claimed':
    'This account starts with 0 credits, because the free credits are once per person and this e-mail address already received them with an earlier account.',
  'disposable-address':
    'This account starts with 0 credits, because free credits need a lasting e-mail address and this one is at a disposable e-mail service.',
};

/** The welcome e-mail of a confirmed sign-up: the account is ready, its credits, and where to start. */
export function welcomeMail(input: WelcomeMailInput, links: SiteLinks): MailContent {
  const credits =
    input.signupBonus === 'granted'
      ? `Your account has ${plural(SIGNUP_BONUS_CREDITS, 'free credit', 'free credits')}: a generation of ${HEADSHOTS_PER_GENERATION} headshots costs ${generationCost()} credits.`
      : NO_BONUS[input.signupBonus];
  return mailMessage({
    subject: 'Welcome to Headshot Studio',
    displayName: input.displayName,
    lines: [
      'Your Headshot Studio account is ready.',
      credits,
      'To make headshots, open the generator, upload photos of yourself and pick a style and a background.',
    ],
    action: { label: 'Open the generator', url: links.generatorUrl },
    footer: `You get this e-mail once, because an account was created with this address. It is about your account, not marketing, so there is nothing to unsubscribe from. If you did not create it, write to ${links.supportEmail}.`,
  });
}

/** What the receipt e-mail says about one purchase (the purchase item, adapters/purchases.ts). */
export interface ReceiptMailInput {
  displayName: string;
  checkoutSessionId: string;
  packId: string;
  credits: number;
  /** Cents actually charged (after any promotion code). */
  amountTotal: number;
  /** ISO 4217, either case (`usd`). */
  currency: string;
  /** Stripe's receipt of the charge, or null (no charge, or Stripe did not answer at fulfilment). */
  receiptUrl: string | null;
  /** When the purchase was credited, ISO 8601 UTC. */
  createdAt: string;
}

/**
 * `4500`, `usd` → `$45.00`: an amount in minor units as a receipt writes it, always with its cents (en-US). Every
 * pack is in US dollars (domain/packs.ts), whose minor unit is the cent.
 */
export function receiptAmount(amountMinor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    amountMinor / 100,
  );
}

const RECEIPT_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** The receipt e-mail of a credited purchase: what was bought, for how much, and Stripe's receipt when known. */
export function receiptMail(input: ReceiptMailInput, links: SiteLinks): MailContent {
  const amount = receiptAmount(input.amountTotal, input.currency);
  const credits = plural(input.credits, 'credit', 'credits');
  return mailMessage({
    subject: `Your receipt: ${credits} for ${amount}`,
    displayName: input.displayName,
    lines: [
      `Thank you for your purchase. ${credits} ${input.credits === 1 ? 'was' : 'were'} added to your account.`,
    ],
    facts: [
      ['Pack', findPack(input.packId)?.name ?? input.packId],
      ['Credits', String(input.credits)],
      ['Amount paid', amount],
      ['Date', RECEIPT_DATE.format(new Date(input.createdAt))],
      ['Reference', input.checkoutSessionId],
    ],
    action: { label: 'See your purchases', url: links.dashboardUrl },
    links: input.receiptUrl ? [{ label: 'Your card receipt from Stripe', url: input.receiptUrl }] : [],
    footer: `You get this e-mail because you bought credits with this account. Questions about this purchase: ${links.supportEmail}.`,
  });
}
