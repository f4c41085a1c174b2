import type { LegalEntity } from '../../../functions/domain/legal-entity';

/**
 * What the legal pages print where the company's details go while the deployment does not give them (locally, and on
 * a stage deployed without `-c legalName=…`; docs/configuration.md, CDK context). Bracketed so a draft is never
 * mistaken for the signed text; the pages then also show their Draft notice. The real values are deployment
 * configuration (functions/domain/legal-entity.ts), read from `/config.json`, never written here.
 */
export const LEGAL_ENTITY_PLACEHOLDERS: LegalEntity = {
  name: '[Company legal name]',
  address: '[Registered office address]',
  registration: '[Company number]',
  jurisdiction: '[Country or state]',
};

/**
 * The date from which this version of the legal pages' text applies, ISO 8601 (shown as "Last updated"). It belongs
 * to the text in this repository, so it changes with it, not with a deployment (docs/decisions/011-retention.md).
 */
export const LEGAL_TEXT_EFFECTIVE_DATE = '2026-11-26';

/**
 * Who the footers' copyright line names: the company the deployment gives (`/config.json`'s `legalEntity`), else
 * the product's name, as before a company is configured.
 */
export function copyrightHolder(entity: LegalEntity | null | undefined): string {
  return entity?.name ?? 'Headshot Studio';
}
