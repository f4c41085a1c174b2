import type { WizardDraftAnswer } from '../contracts/draft';
import { viewWizardDraft } from '../use-cases/wizard-draft';
import { callerOf, httpHandler, json } from './handler';

/**
 * `GET /api/draft` (jwt) → 200 `{ draft: { step, style, background, photos: [{ key, name, preview }] } | null }`: the
 * generator's draft kept with the caller's account (functions/contracts/draft.ts), so a closed browser or another
 * device resumes the wizard. Photos whose upload has expired or was deleted are left out; a draft past its 7 days
 * is null.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  return json<WizardDraftAnswer>(200, { draft: await viewWizardDraft(sub) });
});
