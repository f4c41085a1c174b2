import * as z from 'zod/mini';
import { generationRef } from './generation-ref';

/** PrepareReferences: `{ generationId, userId, referenceKeys }`. */
export const prepareReferencesInput = z.extend(generationRef, {
  referenceKeys: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(10)),
});
