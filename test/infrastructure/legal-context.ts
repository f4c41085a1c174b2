/**
 * The CDK context of a legal entity (infrastructure/constructs/legal-entity.ts), for tests that read a production
 * stage's context: production refuses to synthesize without it (issue 35 item 2). Example values, not a company.
 */
export const LEGAL_CONTEXT = {
  legalName: 'Example Portraits Ltd',
  legalAddress: '1 Example Street, London EC1A 1AA, United Kingdom',
  legalRegistration: 'Company number 01234567',
  legalJurisdiction: 'England and Wales',
  supportEmail: 'support@example.com',
} as const;
