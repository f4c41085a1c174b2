import * as z from 'zod/mini';

/**
 * The one error shape of the whole API (docs/architecture.md §3): `{ "error": { "code", "message", "details"? } }`.
 * `message` is written for a person and safe to show as is; `code` is stable for programs (e.g. `VALIDATION_ERROR`,
 * `NOT_FOUND`, `INSUFFICIENT_CREDITS`, `QUOTA_EXCEEDED`); `details` depends on the code (e.g. `{ required, credits }`
 * for `INSUFFICIENT_CREDITS`, `{ quota, retryAfterSeconds }` for `QUOTA_EXCEEDED`). The team routes' codes
 * (`TEAM_NOT_FOUND`, `TEAM_FORBIDDEN`, `INVITE_EXPIRED`, … and their details) are listed in docs/teams.md "Errors";
 * their sentences are `TEAM_ERROR_MESSAGES` (contracts/teams.ts).
 */
export const apiErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.optional(z.unknown()),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
