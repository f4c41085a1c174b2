import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The backend's layers (docs/architecture.md §9) are enforced by `npm run lint`: this lints code as if it were a file
 * at a path inside functions/, with the repository's own ESLint config, and checks which imports it refuses. The
 * imports name real modules, so the resolver finds them as it does in the tree (nothing is written to disk).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

interface Probe {
  /** Where the code is linted as if it lived, relative to the repository root. */
  path: string;
  /** What it imports. */
  from: string;
}

/** One import, used, so that only the boundary rules have something to say. */
function codeOf({ from }: Probe): string {
  return `import * as imported from '${from}';\n\nexport const probe = imported;\n`;
}

const probes = {
  workflowToAdapter: { path: 'functions/workflow/lint-probe.ts', from: '../adapters/generations' },
  httpToAdapter: { path: 'functions/http/lint-probe.ts', from: '../adapters/storage' },
  httpToUseCase: { path: 'functions/http/lint-probe.ts', from: '../use-cases/start-generation' },
  adapterFolderToAdapter: { path: 'functions/adapters/headshots/lint-probe.ts', from: '../storage' },
  adapterFileToAdapter: { path: 'functions/adapters/storage.ts', from: './generations' },
  adapterToUseCase: {
    path: 'functions/adapters/headshots/lint-probe.ts',
    from: '../../use-cases/start-generation',
  },
  adapterToEntryPoint: { path: 'functions/adapters/headshots/lint-probe.ts', from: '../../http/handler' },
  adapterToOwnFolder: { path: 'functions/adapters/headshots/lint-probe.ts', from: './records' },
  adapterToSupport: { path: 'functions/adapters/headshots/lint-probe.ts', from: '../support/aws' },
  useCaseToEntryPoint: { path: 'functions/use-cases/lint-probe.ts', from: '../http/handler' },
  useCaseToAwsSdk: { path: 'functions/use-cases/lint-probe.ts', from: '@aws-sdk/client-s3' },
  adapterToAwsSdk: { path: 'functions/adapters/headshots/lint-probe.ts', from: '@aws-sdk/client-s3' },
  adapterToClassicZod: { path: 'functions/adapters/headshots/lint-probe.ts', from: 'zod' },
  domainToAdapter: { path: 'functions/domain/lint-probe.ts', from: '../adapters/storage' },
  domainToLogger: { path: 'functions/domain/lint-probe.ts', from: '../common/logger' },
  domainToFileSystem: { path: 'functions/domain/lint-probe.ts', from: 'node:fs/promises' },
  domainToDomain: { path: 'functions/domain/lint-probe.ts', from: './credits' },
} satisfies Record<string, Probe>;

type ProbeName = keyof typeof probes;
let results: Record<ProbeName, ESLint.LintResult>;

beforeAll(async () => {
  const eslint = new ESLint({ cwd: root, overrideConfigFile: `${root}.config/eslint.config.js` });
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      const [result] = await eslint.lintText(codeOf(probe), { filePath: `${root}${probe.path}` });
      return [name, result!] as const;
    }),
  );
  results = Object.fromEntries(entries) as Record<ProbeName, ESLint.LintResult>;
}, 120_000);

/** The messages of one rule, errors only. */
const errorsOf = (name: ProbeName, ruleId: string) =>
  results[name].messages.filter((m) => m.ruleId === ruleId && m.severity === 2);
const boundaryErrors = (name: ProbeName) => errorsOf(name, 'import-x/no-restricted-paths');
const importErrors = (name: ProbeName) => errorsOf(name, '@typescript-eslint/no-restricted-imports');

describe('backend import boundaries (npm run lint)', () => {
  // An import the resolver cannot find is never reported, so a probe whose module moved would pass for the wrong
  // reason: every relative import must name a file that exists, and so must every probe that stands in for a real
  // adapter file (the config lists adapters from the tree).
  it('probes import modules that exist, from files that exist', () => {
    const all = Object.values(probes as Record<string, Probe>);
    const missing = all
      .filter(({ from }) => from.startsWith('.'))
      .map(({ path, from }) => resolve(root, dirname(path), from))
      .filter((module) => !['.ts', '/index.ts'].some((ending) => existsSync(`${module}${ending}`)));
    const missingFiles = all
      .filter(({ path }) => !path.endsWith('/lint-probe.ts'))
      .filter(({ path }) => !existsSync(`${root}${path}`));
    expect(missing).toEqual([]);
    expect(missingFiles).toEqual([]);
  });

  it('fails a workflow task that imports an adapter', () => {
    expect(boundaryErrors('workflowToAdapter')).toHaveLength(1);
    expect(boundaryErrors('workflowToAdapter')[0]!.message).toMatch(/Entry points never import adapters/);
  });

  it('fails an HTTP handler that imports an adapter, and lets it import a use case', () => {
    expect(boundaryErrors('httpToAdapter')).toHaveLength(1);
    expect(boundaryErrors('httpToAdapter')[0]!.message).toMatch(/Entry points never import adapters/);
    expect(results.httpToUseCase.messages).toEqual([]);
  });

  it('fails an adapter that imports another adapter, from a folder adapter or a file adapter', () => {
    for (const name of ['adapterFolderToAdapter', 'adapterFileToAdapter'] as const) {
      expect(boundaryErrors(name), name).toHaveLength(1);
      expect(boundaryErrors(name)[0]!.message).toMatch(/Adapters never import each other/);
    }
  });

  it('fails an adapter that imports a use case or an entry point', () => {
    for (const name of ['adapterToUseCase', 'adapterToEntryPoint'] as const) {
      expect(boundaryErrors(name), name).toHaveLength(1);
      expect(boundaryErrors(name)[0]!.message).toMatch(/Adapters never import a use case or an entry point/);
    }
  });

  it('lets an adapter import its own folder and adapters/support', () => {
    expect(results.adapterToOwnFolder.messages).toEqual([]);
    expect(results.adapterToSupport.messages).toEqual([]);
  });

  it('fails a use case that imports an entry point', () => {
    expect(boundaryErrors('useCaseToEntryPoint')).toHaveLength(1);
    expect(boundaryErrors('useCaseToEntryPoint')[0]!.message).toMatch(
      /Use cases never import an entry point/,
    );
  });

  it('fails @aws-sdk/* in a use case and allows it in an adapter', () => {
    expect(importErrors('useCaseToAwsSdk')).toHaveLength(1);
    expect(importErrors('useCaseToAwsSdk')[0]!.message).toMatch(/Only functions\/adapters\/ talks to AWS/);
    expect(results.adapterToAwsSdk.messages).toEqual([]);
  });

  it('keeps the bundle rules in the adapters, where the AWS SDK rule is lifted', () => {
    expect(importErrors('adapterToClassicZod')).toHaveLength(1);
    expect(importErrors('adapterToClassicZod')[0]!.message).toMatch(/The backend uses zod\/mini/);
  });

  it('fails domain/ that imports an adapter, the logger or a file system module, and lets it import domain/', () => {
    for (const name of ['domainToAdapter', 'domainToLogger'] as const) {
      expect(boundaryErrors(name), name).toHaveLength(1);
      expect(boundaryErrors(name)[0]!.message).toMatch(/domain\/ is pure rules, no I\/O/);
    }
    expect(importErrors('domainToFileSystem')).toHaveLength(1);
    expect(importErrors('domainToFileSystem')[0]!.message).toMatch(/domain\/ does no I\/O/);
    expect(results.domainToDomain.messages).toEqual([]);
  });
});
