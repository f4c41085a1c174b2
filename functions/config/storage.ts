import * as z from 'zod/mini';
import { defineSettings } from './settings';
import { requiredName } from './fields';

/**
 * The data stores: the single DynamoDB table and the two S3 buckets (docs/architecture.md, data model). Required:
 * the CDK stack and the local stack set all three on every function, and a handler without them cannot do
 * anything right.
 */
const storage = defineSettings(
  z.object({
    /** The single table (users, ledger, generations, headshots, quotas, admission). */
    TABLE_NAME: requiredName,
    /** The bucket of reference photos (presigned POST uploads). */
    UPLOADS_BUCKET: requiredName,
    /** The bucket of generated headshots. */
    RESULTS_BUCKET: requiredName,
  }),
);

/** The table and bucket names. */
export type StorageSettings = ReturnType<typeof storage.load>;
/** The table and bucket names of this execution environment (parsed once per cold start). */
export const storageSettings = storage.load;
/** Parses an environment's table and bucket names. @throws {ConfigError} naming each missing one. */
export const parseStorageSettings = storage.parse;
