import { spawnSync } from 'node:child_process';
import { LocalStackError } from './errors';

/** The minimum Java major version Amazon DynamoDB Local 3.x runs on. */
export const MIN_JAVA = 17;

/**
 * Checks that `java` 17+ is on the PATH (DynamoDB Local is a Java program).
 *
 * @throws {LocalStackError} with the install command when Java is missing or too old.
 */
export function assertJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const fix = `Install Java ${MIN_JAVA}+: \`sudo apt-get install -y openjdk-17-jre-headless\` (Debian/Ubuntu) or \`brew install openjdk@17\` (macOS), then run \`npm start\` again.`;
  if (result.error || result.status !== 0) {
    throw new LocalStackError('Java was not found: Amazon DynamoDB Local needs Java 17 or newer.', fix);
  }
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  const major = match ? Number(match[1] === '1' ? match[2] : match[1]) : NaN;
  if (Number.isFinite(major) && major < MIN_JAVA) {
    throw new LocalStackError(
      `Java ${major} was found, but Amazon DynamoDB Local needs Java ${MIN_JAVA} or newer.`,
      fix,
    );
  }
}
