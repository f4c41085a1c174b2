/**
 * A refusal at synth that the person running `cdk synth`/`cdk deploy` can act on: a missing build, invalid or missing
 * context. Its message is one line that says what to do; `infrastructure/app.ts` prints it as `Error: <message>` on
 * stderr and exits 1, without a stack trace (a stack trace stays for what is a bug in the app).
 */
export class SynthRefusal extends Error {
  constructor(message: string) {
    super(oneLine(message));
  }
}

/**
 * The context (`-c key=value`, `cdk.json`) is invalid or lacks what the stage needs (source of each rule: the CDK
 * context table of docs/configuration.md).
 */
export class InvalidContextError extends SynthRefusal {
  override readonly name = 'InvalidContextError';
  /** Each problem, one per invalid key, e.g. `mailFrom "x": an e-mail address of a verified SES identity`. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid context: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

/** `text` with every run of whitespace (newlines included) collapsed to one space. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
