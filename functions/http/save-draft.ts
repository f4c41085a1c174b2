import { wizardDraftSchema } from '../contracts/draft';
import { saveWizardDraft } from '../use-cases/wizard-draft';
import { callerOf, httpHandler, noContent, parseBody } from './handler';

/**
 * `PUT /api/draft` (jwt) `{ step: 1-3, style, background, photos: [{ key, name, preview }] }` → 204: keeps the
 * generator's draft with the caller's account, replacing the one before; an empty draft (step 1, nothing chosen)
 * deletes it. It expires 7 days after the last save.
 *
 * Errors: 400 `VALIDATION_ERROR` (more than 10 photos, a photo twice, a name over 255 characters, a preview that is
 * not a JPEG `data:` URL of at most 32,000 characters, an unknown style or background, a step outside 1-3), 400
 * `INVALID_REFERENCE` (a key that is not one of the caller's uploads), 404 `NOT_FOUND` (no user item yet: call
 * `GET /api/me` first), 409 `ACCOUNT_DELETING` / 410 `ACCOUNT_DELETED`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  await saveWizardDraft(sub, parseBody(event, wizardDraftSchema));
  return noContent();
});
