import type * as z from 'zod/mini';
import { secretsGeneration } from '../common/secret-values';
import { useEnglishIssueMessages } from '../common/zod-locale';

/**
 * The machinery every settings group (`functions/config/*.ts`) shares: parse one small zod schema of the variables a
 * group reads, once per cold start, and fail loudly naming each bad variable.
 *
 * Why groups and not one schema: a handler bundles and parses only the groups its code path reaches (the settings
 * of Stripe are not built, let alone parsed, in a workflow task), which keeps every cold start as short as its work
 * allows (docs/architecture.md, cloud: lean handler bundles).
 */

/** Thrown when the environment is incomplete; its message lists every problem of the group at once. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  - ${problems.join('\n  - ')}`,
    );
  }
}

/** An environment as `process.env` holds it: variable name → value. */
export type Environment = Record<string, string | undefined>;

/** One settings group: a pure parser (tests) and a memoised loader of `process.env` (handlers). */
export interface SettingsGroup<T> {
  /**
   * Parses `env` into the group's settings (defaults applied, derived values computed).
   *
   * @throws {ConfigError} listing every missing or invalid variable of the group, never only the first.
   */
  parse(env: Environment): T;
  /**
   * The group's settings of this execution environment, parsed from `process.env` on first use and kept for later
   * invocations. Parsed again only after a secret has arrived (common/secrets.ts → common/secret-values.ts
   * `secretsChanged`), so a placeholder at the cold start does not stay "missing" for the life of the environment;
   * until then the same object is returned (callers may compare it by identity).
   *
   * @throws {ConfigError} when the environment is incomplete.
   */
  load(): T;
}

const resets: (() => void)[] = [];

/**
 * Makes a settings group of `schema` (a zod/mini schema of the variables, keyed by their names).
 *
 * @param schema parses an {@link Environment}; its issues' paths name the variables
 */
export function defineSettings<S extends z.ZodMiniType>(schema: S): SettingsGroup<z.output<S>> {
  const parse = (env: Environment): z.output<S> => {
    useEnglishIssueMessages();
    const result = schema.safeParse(env);
    if (!result.success) {
      throw new ConfigError(
        result.error.issues.map((issue) => {
          const name = issue.path.join('.') || '(environment)';
          // zod does not report the input of an issue: whether the variable is set says "missing" from "invalid".
          const unset = issue.path.length === 1 && env[String(issue.path[0])] === undefined;
          return issue.code === 'invalid_type' && unset ? `${name} is missing` : `${name}: ${issue.message}`;
        }),
      );
    }
    return result.data;
  };
  let cached: { settings: z.output<S>; secrets: number } | undefined;
  resets.push(() => (cached = undefined));
  return {
    parse,
    load() {
      if (cached?.secrets !== secretsGeneration())
        cached = { settings: parse(process.env), secrets: secretsGeneration() };
      return cached.settings;
    },
  };
}

/**
 * Forgets every group's parsed settings, so the next `load()` reads `process.env` again. Tests only: a Lambda
 * environment never changes its plain variables.
 */
export function resetConfigForTests(): void {
  for (const reset of resets) reset();
}

/**
 * Registers `forget` to run with {@link resetConfigForTests}: what a module built from the settings (an AWS SDK client
 * with its region and endpoint) is forgotten with them, so the next call builds it from the new ones. Tests only, as
 * that reset is.
 */
export function onConfigReset(forget: () => void): void {
  resets.push(forget);
}
