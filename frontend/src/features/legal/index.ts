/**
 * The legal pages at `/terms`, `/privacy` and `/refunds` (issue 27 item 7). Import from here (`features/legal`).
 * The company's details are deployment configuration read from `/config.json` (hooks/use-legal-entity.ts;
 * placeholders and a Draft notice without them); the retention periods functions/domain/retention.ts; the refund
 * rules lib/refund-policy.ts.
 */
export { PrivacyPage, RETENTION_ROWS } from './components/PrivacyPage';
export { RefundPolicyPage } from './components/RefundPolicyPage';
export { TermsPage } from './components/TermsPage';
