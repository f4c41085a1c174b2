import { config } from 'zod/mini';
import { en } from 'zod/locales';

let configured = false;

/**
 * Gives zod's issues their English messages, once per execution environment. The backend validates with `zod/mini`
 * (the tree-shakable API of the same zod package: a fraction of classic zod in a Lambda bundle), which, unlike
 * classic zod, registers no locale of its own: without this every issue would read "Invalid input". With it the
 * messages are classic zod's ("Too small: expected string to have >=1 characters", "Invalid option: expected one of
 * …"), which the API's 400 `VALIDATION_ERROR` answers and the configuration errors quote (docs/architecture.md §3,
 * Errors). Called by what turns issues into words (http/handler.ts `parseBody`/`parseQuery`, config/settings.ts, the workflow
 * inputs), so a handler that parses nothing carries no locale.
 */
export function useEnglishIssueMessages(): void {
  if (configured) return;
  configured = true;
  config(en());
}
