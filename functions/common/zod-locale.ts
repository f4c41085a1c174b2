import { config } from 'zod/mini';
import { en } from 'zod/locales';

/*
 * The backend validates with `zod/mini` (the tree-shakable API of the same zod package: about a fifth of classic
 * zod in a Lambda bundle). Unlike classic zod it registers no locale of its own, so without this every issue would
 * read "Invalid input". Setting the English locale once gives the same issue messages classic zod gives ("Too small:
 * expected string to have >=1 characters", "Invalid option: expected one of …"), which the API's 400
 * `VALIDATION_ERROR` answers and the configuration errors quote (docs/architecture.md §3, Errors). Imported for its
 * side effect by every module that turns issues into words.
 */
config(en());
