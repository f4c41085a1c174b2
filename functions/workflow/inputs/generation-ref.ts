import * as z from 'zod/mini';
import { useEnglishIssueMessages } from '../../common/zod-locale';

// Parse errors of these payloads end up in the execution's history: give them zod's English messages.
useEnglishIssueMessages();

/*
 * The payloads the generation workflow (statemachines/generation.asl.json) hands each task, parsed with zod so a
 * definition that drifts from the code fails loudly at the first task instead of half-way through. One module per
 * task's payload: a task's bundle then holds, and its cold start builds, only its own schema.
 */

const id = z.string().check(z.minLength(1), z.maxLength(128));

/** Every task gets the generation and its owner. */
export const generationRef = z.object({ generationId: id, userId: id });
