/**
 * How many times the welcome or a receipt e-mail is tried before it is given up (adapters/mail-markers.ts). A send
 * that fails is tried again by the next call for the same account or purchase (a retried trigger, the success page's
 * verification, a webhook redelivery); three tries ride out a passing SES error (throttling after the SDK's own
 * retries) without mailing forever on one SES refuses for the account's setup (`MailRefused` alarms on those).
 */
export const MAIL_ATTEMPTS = 3;
