// ESLint flat config. It lives in .config/ because the repository's top level is fixed (docs/architecture.md §1);
// `npm run lint` passes it with --config.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const root = fileURLToPath(new URL('..', import.meta.url));
const SRC = 'frontend/src';
/** Every feature folder: each one gets a zone that keeps the others out (docs/architecture.md §9). */
const FEATURES = readdirSync(`${root}${SRC}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: ['node_modules/**', '.local/**', 'cdk.out/**', 'dist/**', 'bench/results/**', 'test-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `import { z }` keeps zod's locales and JSON-schema code in every bundle; the namespace lets esbuild and
      // Rollup drop what is unused (about 360 KB per Lambda handler).
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier",
          message: "Import zod as a namespace: import * as z from 'zod'.",
        },
      ],
    },
  },
  // Lambda bundles: classic zod (~100 KB per handler) and nodemailer (~240 KB) stay out of functions/. The backend
  // validates with zod/mini and sends mail with the SES v2 client (locally through the SES stand-in).
  {
    files: ['functions/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: "The backend uses zod/mini: import * as z from 'zod/mini'." },
            {
              name: 'nodemailer',
              message: 'Send mail with @aws-sdk/client-sesv2 (functions/adapters/mailer.ts).',
            },
          ],
          // The contracts barrel builds every route's schemas when it loads (its route table holds them all): a
          // handler importing one schema through it carried the others' code and paid for building them at each
          // cold start (about 12 KB and 5 ms). Types cost nothing at run time, so they may still come from it.
          patterns: [
            {
              regex: '^(\\.\\./)+contracts(/index)?$',
              allowTypeImports: true,
              message: "Import schemas from the route's own contract module (contracts/account, …).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}', 'test/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // The SPA's layers (docs/architecture.md §9): app → features → shared code (components, hooks, lib, config).
  // A feature never imports another feature (what two features share moves down to shared code), shared code never
  // imports a feature or the app, and no module imports itself round a cycle.
  {
    files: [`${SRC}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            ...FEATURES.map((name) => ({
              target: `${SRC}/features/${name}`,
              from: `${SRC}/features`,
              except: [`./${name}`],
              message:
                'Features never import each other: move what both need to components/, hooks/ or lib/.',
            })),
            {
              target: [`${SRC}/components`, `${SRC}/hooks`, `${SRC}/lib`, `${SRC}/config`],
              from: [`${SRC}/features`, `${SRC}/app`],
              message: 'Shared code never imports a feature or the app: pass what it needs in as props.',
            },
            {
              target: `${SRC}/features`,
              from: `${SRC}/app`,
              message: 'Features never import the app shell (router, providers).',
            },
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
