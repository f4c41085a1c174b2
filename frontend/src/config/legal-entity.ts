/**
 * The company behind Headshot Studio, as the Terms of Service, Privacy Policy and Refund Policy name it: the ONE
 * place to complete before launch (docs/decisions/011-retention.md, "Revisit"). While `placeholder` is true every
 * legal page shows a notice that these details are still to be completed, so a draft is never mistaken for the
 * signed text. Fill in every field with what the company's lawyer approves, then set `placeholder` to false.
 */
export const LEGAL_ENTITY = {
  /** True until the fields below hold the real company's details. */
  placeholder: true,
  /** The registered legal name of the company (the seller and the data controller). */
  name: '[Company legal name]',
  /** Its registered address. */
  address: '[Registered office address]',
  /** Its company registration number and, where it has one, its VAT number. */
  registration: '[Company number]',
  /** The law that governs the Terms and where disputes are heard. */
  governingLaw: '[Country or state]',
  /** The date from which these versions of the pages apply, ISO 8601 (shown as "Last updated"). */
  effectiveDate: '2026-11-26',
} as const;
