import { discardWizardDraft } from '../use-cases/wizard-draft';
import { callerOf, httpHandler, noContent } from './handler';

/**
 * `DELETE /api/draft` (jwt) → 204, no body: forgets the generator's draft kept with the caller's account (a
 * generation was started from it, or the customer started over). Repeated calls answer 204 too.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  await discardWizardDraft(sub);
  return noContent();
});
