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

/** The Lambda code's entry points: each parses its input and calls one use case (docs/architecture.md §9). */
const ENTRY_POINTS = ['http', 'workflow', 'webhooks', 'triggers', 'scheduled', 'queues'].map(
  (name) => `functions/${name}`,
);
/**
 * Every adapter, as its path: a file functions/adapters/<name>.ts or a folder functions/adapters/<name>/ is one
 * adapter; support/ is the shared plumbing every adapter may import, and a .d.ts only declares a library's types.
 */
const ADAPTERS = readdirSync(`${root}functions/adapters`, { withFileTypes: true })
  .filter((entry) =>
    entry.isDirectory()
      ? entry.name !== 'support'
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'),
  )
  .map((entry) => entry.name);

/**
 * The options of `@typescript-eslint/no-restricted-imports` for one part of functions/. Flat config replaces a rule's
 * options wholesale when a later block names the same rule, so every block builds its full list here: the bundle
 * rules hold everywhere in functions/, `@aws-sdk/*` is refused outside the adapters, and domain/ may add its own.
 *
 * @param {{ awsSdk?: boolean, patterns?: object[] }} options `awsSdk`: true where the SDK may be imported
 *   (functions/adapters/); `patterns`: further no-restricted-imports patterns of that part
 */
function backendImports({ awsSdk = false, patterns = [] } = {}) {
  return [
    'error',
    {
      paths: [
        { name: 'zod', message: "The backend uses zod/mini: import * as z from 'zod/mini'." },
        {
          name: 'nodemailer',
          message: 'Send mail with @aws-sdk/client-sesv2 (functions/adapters/mailer.ts).',
        },
      ],
      patterns: [
        // The contracts barrel builds every route's schemas when it loads (its route table holds them all): a
        // handler importing one schema through it carried the others' code and paid for building them at each
        // cold start (about 12 KB and 5 ms). Types cost nothing at run time, so they may still come from it.
        {
          regex: '^(\\.\\./)+contracts(/index)?$',
          allowTypeImports: true,
          message: "Import schemas from the route's own contract module (contracts/account, …).",
        },
        ...(awsSdk
          ? []
          : [
              {
                group: ['@aws-sdk/*'],
                message:
                  'Only functions/adapters/ talks to AWS (docs/architecture.md §9): call an adapter, through a use case.',
              },
            ]),
        ...patterns,
      ],
    },
  ];
}

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
    rules: { '@typescript-eslint/no-restricted-imports': backendImports() },
  },
  {
    files: ['functions/adapters/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': backendImports({ awsSdk: true }) },
  },
  // domain/ is pure rules, no I/O (docs/architecture.md §9): besides the layers kept out below, no file, network or
  // process module of Node. node:crypto (hashes) computes and stays allowed.
  {
    files: ['functions/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': backendImports({
        patterns: [
          {
            regex: '^(node:)?(fs|http|https|http2|net|tls|dgram|dns|child_process|worker_threads)(/.*)?$',
            message:
              'domain/ does no I/O (docs/architecture.md §9): the use case reads and writes through adapters.',
          },
        ],
      }),
    },
  },
  // The backend's layers (docs/architecture.md §9): entry points → use cases → domain and adapters. An entry point
  // calls one use case and never an adapter; an adapter does one job and never calls another adapter, a use case or
  // an entry point (what two adapters do together is a use case); domain/ is pure rules and imports no layer that
  // does I/O (adapters, common's logger/metrics/tracer) nor the layers above it.
  {
    files: ['functions/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: ENTRY_POINTS,
              from: 'functions/adapters',
              message:
                'Entry points never import adapters (docs/architecture.md §9): call one use case, which receives the adapters as its ports.',
            },
            ...ADAPTERS.map((name) => ({
              target: `functions/adapters/${name}`,
              from: 'functions/adapters',
              except: [`./${name}`, './support'],
              message:
                'Adapters never import each other (docs/architecture.md §9): compose the two in a use case, or move shared plumbing to adapters/support/.',
            })),
            {
              target: 'functions/adapters/support',
              from: 'functions/adapters',
              except: ['./support'],
              message:
                'adapters/support/ is plumbing every adapter shares: it never imports an adapter (docs/architecture.md §9).',
            },
            {
              target: 'functions/adapters',
              from: ['functions/use-cases', ...ENTRY_POINTS],
              message:
                'Adapters never import a use case or an entry point (docs/architecture.md §9): the use case calls the adapter, not the other way round.',
            },
            {
              target: 'functions/use-cases',
              from: ENTRY_POINTS,
              message:
                'Use cases never import an entry point (docs/architecture.md §9): move what both need to domain/, contracts/ or common/.',
            },
            {
              target: 'functions/domain',
              from: [
                'functions/adapters',
                'functions/use-cases',
                ...ENTRY_POINTS,
                'functions/common',
                'functions/catalogue.ts',
                'functions/catalogue-types.ts',
                'functions/queue-catalogue.ts',
              ],
              message:
                'domain/ is pure rules, no I/O (docs/architecture.md §9): it imports only domain/, config/ and contracts/; the use case does the I/O and logging.',
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
