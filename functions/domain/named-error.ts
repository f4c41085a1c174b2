/**
 * A base class for an error matched by its `name` (the workflow's Retry/Catch and the ASL, the API's error table):
 * the name is set explicitly on every instance so bundling or minification cannot change it
 * (docs/architecture.md §5). Use: `export class NoHeadshotsError extends namedError('NoHeadshotsError') {}`.
 */
export function namedError<const N extends string>(name: N) {
  return class extends Error {
    override readonly name: N = name;
  };
}
