/**
 * A problem starting the local stack that the developer can fix: `message` says what is wrong, `fix` what to do.
 * `npm start` prints the two lines and exits 1 without a stack trace.
 */
export class LocalStackError extends Error {
  override readonly name = 'LocalStackError';
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}
