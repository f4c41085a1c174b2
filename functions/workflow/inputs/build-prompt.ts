import * as z from 'zod/mini';
import { BACKGROUNDS, STYLES } from '../../domain/styles';
import { generationRef } from './generation-ref';

/** BuildPrompt: `{ generationId, userId, style, background }`. */
export const buildPromptInput = z.extend(generationRef, {
  style: z.enum(STYLES),
  background: z.enum(BACKGROUNDS),
});
