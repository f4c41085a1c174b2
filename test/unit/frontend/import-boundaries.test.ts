import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The SPA's layers (docs/architecture.md §9) are enforced by `npm run lint`: this lints real files, written into the
 * tree for the test, with the repository's own ESLint config.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const tag = `lint-probe-${process.pid}`;
const probes = {
  crossFeature: {
    path: `frontend/src/features/pricing/${tag}.ts`,
    code: "import { DashboardPage } from '../dashboard';\n\nexport const probe = DashboardPage;\n",
  },
  sharedToFeature: {
    path: `frontend/src/components/${tag}.ts`,
    code: "import { PricingPage } from '../features/pricing';\n\nexport const probe = PricingPage;\n",
  },
  allowed: {
    path: `frontend/src/features/dashboard/${tag}.ts`,
    code: "import { paths } from '../../config/paths';\nimport { DashboardPage } from '.';\n\nexport const probe = [paths, DashboardPage];\n",
  },
} as const;

let results: Record<keyof typeof probes, ESLint.LintResult>;

beforeAll(async () => {
  await Promise.all(Object.values(probes).map((probe) => writeFile(`${root}${probe.path}`, probe.code)));
  try {
    const eslint = new ESLint({ cwd: root, overrideConfigFile: `${root}.config/eslint.config.js` });
    const linted = await eslint.lintFiles(Object.values(probes).map((probe) => probe.path));
    const byPath = (path: string) => linted.find((result) => result.filePath === `${root}${path}`)!;
    results = {
      crossFeature: byPath(probes.crossFeature.path),
      sharedToFeature: byPath(probes.sharedToFeature.path),
      allowed: byPath(probes.allowed.path),
    };
  } finally {
    await Promise.all(Object.values(probes).map((probe) => rm(`${root}${probe.path}`, { force: true })));
  }
}, 120_000);

const boundaryErrors = (result: ESLint.LintResult) =>
  result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths' && m.severity === 2);

describe('import boundaries (npm run lint)', () => {
  it('fails a feature that imports another feature', () => {
    expect(boundaryErrors(results.crossFeature)).toHaveLength(1);
    expect(boundaryErrors(results.crossFeature)[0]!.message).toMatch(/Features never import each other/);
  });

  it('fails shared code that imports a feature', () => {
    expect(boundaryErrors(results.sharedToFeature)).toHaveLength(1);
    expect(boundaryErrors(results.sharedToFeature)[0]!.message).toMatch(
      /Shared code never imports a feature/,
    );
  });

  it('lets a feature import shared code and its own files', () => {
    expect(results.allowed.messages).toEqual([]);
  });
});
