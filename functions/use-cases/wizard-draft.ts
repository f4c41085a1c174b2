import { headObject } from '../adapters/storage';
import { deleteWizardDraft, getWizardDraft, putWizardDraft } from '../adapters/wizard-drafts';
import type { WizardDraft } from '../contracts/draft';
import { ForeignUploadError } from '../domain/errors';
import { isOwnUploadKey } from '../domain/object-keys';

/**
 * What the wizard's draft kept with the account needs from the outside world: its one item in the table, and
 * whether each upload it names still exists (uploads expire after 7 days, and "Delete my data" removes them). Each
 * use case below takes only the ports it calls, so each route's bundle (and IAM role) holds only those adapters.
 */
export interface WizardDraftPorts {
  getWizardDraft: typeof getWizardDraft;
  putWizardDraft: typeof putWizardDraft;
  deleteWizardDraft: typeof deleteWizardDraft;
  headObject: typeof headObject;
}

type ViewPorts = Pick<WizardDraftPorts, 'getWizardDraft' | 'headObject'>;
type SavePorts = Pick<WizardDraftPorts, 'putWizardDraft' | 'deleteWizardDraft'>;
type DiscardPorts = Pick<WizardDraftPorts, 'deleteWizardDraft'>;

const viewAdapters: ViewPorts = { getWizardDraft, headObject };
const saveAdapters: SavePorts = { putWizardDraft, deleteWizardDraft };
const discardAdapters: DiscardPorts = { deleteWizardDraft };

/**
 * `GET /api/draft`: the caller's draft as the generator resumes it (issue 35 item 4: a closed browser or another
 * device), with every photo whose upload is gone left out without an error — it expired or was deleted, and the
 * customer simply sees the photos that are still there.
 *
 * @param now the clock (tests): a draft past its expiry is none
 * @returns the draft, or null when there is none
 */
export async function viewWizardDraft(
  sub: string,
  now = new Date(),
  ports: ViewPorts = viewAdapters,
): Promise<WizardDraft | null> {
  const draft = await ports.getWizardDraft(sub, now);
  if (!draft) return null;
  const present = await Promise.all(
    // A key that is not the caller's is never looked up (saving refuses them; an older item is not trusted).
    draft.photos.map(
      async (p) => isOwnUploadKey(sub, p.key) && (await ports.headObject('uploads', p.key)) !== undefined,
    ),
  );
  return { ...draft, photos: draft.photos.filter((_, i) => present[i]) };
}

/** True when the draft holds nothing to resume: step 1, no photo, no style, no background. */
function isEmpty(draft: WizardDraft): boolean {
  return draft.step === 1 && draft.photos.length === 0 && draft.style === null && draft.background === null;
}

/**
 * `PUT /api/draft`: keeps the wizard's draft with the account, replacing the one before (the SPA saves the whole
 * draft a moment after each change). An empty draft deletes the stored one instead, as the tab's session draft is
 * removed (frontend/src/features/generator/utils/wizard-draft.ts). Sizes are bounded by the contract
 * (functions/contracts/draft.ts: at most 10 photos, previews ≤ 32,000 characters).
 *
 * @param now the clock (tests): the draft expires 7 days after it (domain/retention.ts WIZARD_DRAFT_RETENTION_DAYS)
 * @throws {ForeignUploadError} for the first photo whose key is not one of the caller's uploads
 *   (`uploads/<sub>/<batch>/<n>`, domain/object-keys.ts): nothing is saved
 * @throws {UserNotFoundError} / {AccountDeletingError} / {AccountDeletedError} from the write: nothing is saved
 */
export async function saveWizardDraft(
  sub: string,
  draft: WizardDraft,
  now = new Date(),
  ports: SavePorts = saveAdapters,
): Promise<void> {
  const foreign = draft.photos.findIndex((p) => !isOwnUploadKey(sub, p.key));
  if (foreign !== -1) throw new ForeignUploadError(foreign);
  if (isEmpty(draft)) await ports.deleteWizardDraft(sub);
  else await ports.putWizardDraft(sub, draft, now);
}

/**
 * `DELETE /api/draft`: forgets the caller's draft — a generation started from it, 'Generate More Headshots', or
 * leaving the wizard and discarding the photos. Repeating it is no error.
 */
export async function discardWizardDraft(sub: string, ports: DiscardPorts = discardAdapters): Promise<void> {
  await ports.deleteWizardDraft(sub);
}
