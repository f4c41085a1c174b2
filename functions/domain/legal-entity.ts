/**
 * The company behind Headshot Studio, as the Terms of Service, Privacy Policy and Refund Policy name it (issue 35
 * item 2): deployment configuration, never source code. The CDK context gives it (`-c legalName=…`,
 * infrastructure/constructs/legal-entity.ts), the stack writes it into the site's `/config.json`, and the SPA's legal
 * pages render it (frontend/src/features/legal). One shape and one check for all three, so a value the stack accepts
 * is one the SPA accepts. The support address is the runtime configuration's `supportEmail`, beside it.
 */
export interface LegalEntity {
  /** The registered legal name of the company: the seller and the data controller. */
  name: string;
  /** Its registered office address, on one line. */
  address: string;
  /** Its company registration number and, where it has one, its VAT number. */
  registration: string;
  /** The country or state whose law governs the Terms, and where disputes are heard. */
  jurisdiction: string;
}

/** The fields of {@link LegalEntity}, in the order the pages name them. */
export const LEGAL_ENTITY_FIELDS = ['name', 'address', 'registration', 'jurisdiction'] as const;

/**
 * Why `text` cannot be a field of {@link LegalEntity}, or undefined when it can: one non-empty line (a page prints it
 * inside a sentence), and not a bracketed placeholder such as `[Company legal name]`, which is what the draft pages
 * show (frontend/src/config/legal-entity.ts) and must never be mistaken for the company's details.
 */
export function legalEntityTextProblem(text: string): string | undefined {
  if (text.trim() === '') return 'a non-empty line of text';
  // Control characters (newlines included) cannot sit inside a sentence of the pages.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'one line of text, without control characters';
  if (/^\s*\[.*\]\s*$/.test(text)) return 'the real value, not a [placeholder]';
  return undefined;
}

/**
 * Checks a value read from JSON (`/config.json`'s `legalEntity`) against {@link LegalEntity} and keeps only its
 * fields (a newer configuration never breaks an older bundle).
 *
 * @returns the entity, or the problems (`name: what is wrong`, one per field)
 */
export function parseLegalEntity(value: unknown): { entity: LegalEntity } | { problems: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problems: ['an object with name, address, registration and jurisdiction'] };
  const input = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of LEGAL_ENTITY_FIELDS) {
    const text = input[field];
    const problem = typeof text === 'string' ? legalEntityTextProblem(text) : 'a string';
    if (problem) problems.push(`${field}: ${problem}`);
  }
  if (problems.length > 0) return { problems };
  const text = (field: (typeof LEGAL_ENTITY_FIELDS)[number]) => (input[field] as string).trim();
  return {
    entity: {
      name: text('name'),
      address: text('address'),
      registration: text('registration'),
      jurisdiction: text('jurisdiction'),
    },
  };
}
