import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { NATIVE_MODULES } from './bundling';
import { REPO_ROOT } from './naming';

/*
 * The import scanner of the functions' bundles: which source files and packages a handler module reaches. The
 * AppFunction construct hashes those files (a bundle is rebuilt only when one changed) and copies the vision models
 * into the bundles that reach them; the catalogue tests check each handler's grants against the AWS SDK commands it
 * imports. It reads the sources as text with regular expressions, no compiler: quick, and exact enough for the
 * repository's own import style.
 */

/** The module that loads the face and person models: a handler that reaches it needs them in its bundle. */
const VISION_RUNTIME = join(REPO_ROOT, 'functions', 'adapters', 'support', 'vision-models', 'runtime.ts');

/**
 * The source file of a handler module (`http/me` → `<repo>/functions/http/me.ts`).
 *
 * @throws {Error} when the module does not exist.
 */
export function handlerEntry(handler: string, functionsDir = join(REPO_ROOT, 'functions')): string {
  const entry = resolveModule(resolve(functionsDir, handler));
  if (!entry) throw new Error(`No handler module ${handler}.ts under ${functionsDir}`);
  return entry;
}

/** `<path>.ts` (or `.tsx`, `/index.ts`) of a module path without extension; `.js` specifiers map to `.ts`. */
function resolveModule(path: string): string | undefined {
  const base = path.replace(/\.(m?js|ts|tsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p));
}

const IMPORT_SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The source files a handler reaches through relative imports, and the packages they import. */
export interface ModuleGraph {
  files: string[];
  packages: string[];
  /**
   * For each `@aws-sdk/*` package: the names imported from it anywhere in the graph (`GetObjectCommand`,
   * `createPresignedPost`); `*` for a default or namespace import (anything may be used).
   */
  sdkImports: Record<string, string[]>;
}

const SDK_IMPORT = /(?:^|[\s;])import\s+(?!type\s)([^'";]*?)\s+from\s*['"](@aws-sdk\/[^'"]+)['"]/g;

function importedNames(clause: string): string[] {
  const braces = /\{([^}]*)\}/.exec(clause);
  const names = braces
    ? braces[1]!
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '' && !n.startsWith('type '))
        .map((n) => n.split(/\s+as\s+/)[0]!)
    : [];
  const rest = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  return rest === '' ? names : [...names, '*'];
}

/**
 * Follows a handler's relative imports (static, `export … from`, dynamic `import()`, `require()`; type-only imports
 * do not count) and collects the files and the bare package names they import.
 */
export function moduleGraph(entry: string): ModuleGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const sdkImports: Record<string, Set<string>> = {};
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.(m?[jt]sx?)$/.test(file)) return;
    const text = readFileSync(file, 'utf8');
    for (const [, clause, pkg] of text.matchAll(SDK_IMPORT)) {
      const set = (sdkImports[pkg!] ??= new Set());
      for (const name of importedNames(clause!)) set.add(name);
    }
    for (const match of text.matchAll(IMPORT_SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        const next = resolveModule(target) ?? (existsSync(target) ? target : undefined);
        if (next) visit(next);
        continue;
      }
      if (specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
    }
  };
  visit(entry);
  return {
    files: [...files].sort(),
    packages: [...packages].sort(),
    sdkImports: Object.fromEntries(
      Object.entries(sdkImports).map(([pkg, names]) => [pkg, [...names].sort()]),
    ),
  };
}

/**
 * The native packages ({@link NATIVE_MODULES}) a handler module reaches through its relative imports: the bundle
 * must leave them external and the function needs the layer that provides them.
 */
export function nativeModulesOf(entry: string): string[] {
  return moduleGraph(entry).packages.filter((p) => (NATIVE_MODULES as readonly string[]).includes(p));
}

/** True when the handler module reaches the vision module through its imports. */
export function usesVision(entry: string): boolean {
  return moduleGraph(entry).files.includes(VISION_RUNTIME);
}
