import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';

/**
 * The logger the local servers and stand-ins write to: info lines and error lines. The orchestrator passes a
 * {@link PartLog}, which prefixes each line with the part's name; tests pass a recording one.
 */
export interface LocalLog {
  info(message: string): void;
  error(message: string): void;
}

/** A line logger for one part of the local stack; every line it prints starts with the part's name. */
export interface PartLog extends LocalLog {
  /** Re-prints every line of a child process stream with this part's prefix. */
  pipe(stream: Readable | null | undefined, level?: 'info' | 'error'): void;
}

const COLORS = [36, 35, 33, 32, 34, 96, 95, 93];
const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
let nextColor = 0;
const WIDTH = 10;

/**
 * A logger whose lines read `dynamodb   | ...`. Colours only on a TTY (never in CI logs or files);
 * `quiet` drops info lines (the test setup uses it) but always keeps errors.
 */
export function createPartLog(name: string, options: { quiet?: boolean } = {}): PartLog {
  const color = COLORS[nextColor++ % COLORS.length];
  const label = name.padEnd(WIDTH);
  const prefix = useColor ? `\u001b[${color}m${label}|\u001b[0m ` : `${label}| `;
  const write = (out: NodeJS.WriteStream, message: string) => {
    for (const line of message.split('\n')) if (line.trim() !== '') out.write(`${prefix}${line}\n`);
  };
  const log: PartLog = {
    info: (message) => {
      if (!options.quiet) write(process.stdout, message);
    },
    error: (message) => write(process.stderr, message),
    pipe: (stream, level = 'info') => {
      if (!stream) return;
      createInterface({ input: stream }).on('line', (line) => log[level](line));
    },
  };
  return log;
}
