import type { LegalEntity } from '../../../../../functions/domain/legal-entity';
import { LEGAL_ENTITY_PLACEHOLDERS } from '../../../config/legal-entity';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';

/** What {@link useLegalEntity} answers. */
export interface LegalEntityView {
  /** The company's details, or the bracketed placeholders while the deployment gives none. */
  entity: LegalEntity;
  /** True while the details are placeholders: the pages then show their Draft notice. */
  draft: boolean;
}

/**
 * The company the legal pages name: the deployed site's `/config.json` (`legalEntity`, written by the stack from its
 * CDK context; issue 35 item 2), else {@link LEGAL_ENTITY_PLACEHOLDERS} with `draft` set, as locally and on a dev
 * stage deployed without it.
 */
export function useLegalEntity(): LegalEntityView {
  const { legalEntity } = useRuntimeConfig();
  return legalEntity
    ? { entity: legalEntity, draft: false }
    : { entity: LEGAL_ENTITY_PLACEHOLDERS, draft: true };
}
