import type * as z from 'zod';
import type { galleryStatsSchema } from '../../../../functions/contracts/headshot';

/**
 * The response contracts the SPA checks answers against: the API's own shared module (`functions/contracts`,
 * docs/architecture.md §3), which the handlers answer by and the tests parse with. Each file of it is imported on
 * its own (never the index with every route), so a screen's chunk carries only the schemas it reads.
 */
export {
  galleryPageSchema,
  galleryStatsSchema,
  headshotDownloadSchema,
  headshotSchema,
  type GalleryPage,
  type Headshot,
  type HeadshotDownload,
  type HeadshotVariant,
  type VariantLink,
} from '../../../../functions/contracts/headshot';
export {
  duplicateMessage,
  generationSchema,
  generationStartedSchema,
  generationStatusSchema,
  photoChecksSchema,
  uploadsSchema,
  type Generation,
  type GenerationStarted,
  type GenerationStatus,
  type Uploads,
} from '../../../../functions/contracts/generation';
export {
  DRAFT_PHOTO_NAME_MAX_CHARS,
  DRAFT_PREVIEW_MAX_CHARS,
  draftPhotoSchema,
  wizardDraftAnswerSchema,
  type WizardDraft as AccountDraft,
} from '../../../../functions/contracts/draft';
export {
  editHeadshotBody,
  headshotVersionsSchema,
  type EditHeadshotBody,
  type EditRequestBody,
  type HeadshotVersion,
  type HeadshotVersions,
} from '../../../../functions/contracts/edits';
export {
  deletedDataSchema,
  meSchema,
  preferencesSchema,
  type ActiveGeneration,
  type DeletedData,
  type Me,
} from '../../../../functions/contracts/account';

/** The gallery's totals (independent of the filter). */
export type GalleryStats = z.infer<typeof galleryStatsSchema>;
