import type { DeleteUserDataPorts } from '../../../../functions/use-cases/delete-my-data';
import type { FakeUserData } from './user-data';

/**
 * The ports of removing a user's data (functions/use-cases/delete-my-data.ts `DeleteUserDataPorts`, which account
 * deletion's ports extend) wired to the in-memory `data`.
 */
export function deleteUserDataPorts(data: FakeUserData): DeleteUserDataPorts {
  return {
    listGenerationSummaries: data.listGenerationSummaries,
    // Nothing of these users is shared with a team (test/unit/use-cases/withdraw-shares.test.ts covers sharing).
    withdrawShares: async () => 0,
    compensateGeneration: data.compensateGeneration,
    deleteAllHeadshotItems: data.deleteAllHeadshotItems,
    deleteGenerationItems: data.deleteGenerationItems,
    deletePhotoChecks: data.deletePhotoChecks,
    deleteWizardDraft: data.deleteWizardDraft,
    deleteUserObjects: data.deleteUserObjects,
  };
}
