import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LEGAL_ENTITY_FIELDS,
  legalEntityTextProblem,
  parseLegalEntity,
  type LegalEntity,
} from '../../functions/domain/legal-entity';

/**
 * What the legal pages and footers were rendered with at build time (issue 35 item 2): the company and the support
 * address. The build writes it beside the pages ({@link PRERENDERED_WITH_FILE}); the deploy compares it with its own
 * context (infrastructure/constructs/legal-entity.ts), so a production site never serves pages prerendered as a
 * Draft, or naming another company, while its `/config.json` names the real one.
 */
export interface PrerenderedWith {
  /** The company the prerendered legal pages name; `null`: placeholders and the Draft notice. */
  legalEntity: LegalEntity | null;
  /** The support address the prerendered pages show. */
  supportEmail: string;
}

/** The record's file in the built site (`dist/site`); left out of the deployed site. */
export const PRERENDERED_WITH_FILE = 'prerendered-with.json';

/** The build's environment variable of each field of the legal entity (docs/configuration.md). */
export const LEGAL_ENTITY_ENV = {
  name: 'LEGAL_NAME',
  address: 'LEGAL_ADDRESS',
  registration: 'LEGAL_REGISTRATION',
  jurisdiction: 'LEGAL_JURISDICTION',
} as const satisfies Record<keyof LegalEntity, string>;

/**
 * The legal entity the build renders the pages with: `LEGAL_NAME`, `LEGAL_ADDRESS`, `LEGAL_REGISTRATION` and
 * `LEGAL_JURISDICTION`, all four or none (none: the Draft pages).
 *
 * @throws Error naming the variables that are missing or invalid, so a build never renders half a company
 */
export function legalEntityFromEnv(env: Record<string, string | undefined>): LegalEntity | null {
  const text = (field: keyof LegalEntity) => env[LEGAL_ENTITY_ENV[field]] || undefined;
  if (LEGAL_ENTITY_FIELDS.every((field) => text(field) === undefined)) return null;
  const problems = LEGAL_ENTITY_FIELDS.flatMap((field) => {
    const value = text(field);
    const problem = value === undefined ? 'missing' : legalEntityTextProblem(value);
    return problem ? [`${LEGAL_ENTITY_ENV[field]}: ${problem}`] : [];
  });
  if (problems.length > 0) {
    const names = LEGAL_ENTITY_FIELDS.map((field) => LEGAL_ENTITY_ENV[field]);
    throw new Error(`${names.join(', ')} go together: ${problems.join('; ')}`);
  }
  return {
    name: text('name')!.trim(),
    address: text('address')!.trim(),
    registration: text('registration')!.trim(),
    jurisdiction: text('jurisdiction')!.trim(),
  };
}

/** Writes the record into the built site `outDir`. */
export function writePrerenderedWith(outDir: string, record: PrerenderedWith): void {
  writeFileSync(join(outDir, PRERENDERED_WITH_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * The record of the built site `siteDir`, or undefined when the build has none (a build made before the record
 * existed, which rendered the Draft pages with the default support address).
 */
export function readPrerenderedWith(siteDir: string): PrerenderedWith | undefined {
  const file = join(siteDir, PRERENDERED_WITH_FILE);
  if (!existsSync(file)) return undefined;
  const body = JSON.parse(readFileSync(file, 'utf8')) as Partial<PrerenderedWith>;
  const legal = body.legalEntity == null ? undefined : parseLegalEntity(body.legalEntity);
  return {
    legalEntity: legal && 'entity' in legal ? legal.entity : null,
    supportEmail: typeof body.supportEmail === 'string' ? body.supportEmail : '',
  };
}
