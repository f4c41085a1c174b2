import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue, catalogueEntry, functionNameOf, type FunctionEntry } from '../../functions/catalogue';
import { routes } from '../../functions/http/routes';
import { handlerEntry, moduleGraph, usesVision } from '../../infrastructure/constructs/module-graph';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';

const FUNCTIONS = join(REPO_ROOT, 'functions');

/** Every module under functions/ that exports a Lambda `handler`, as a handler path (`http/me`). */
function handlerModules(dir = FUNCTIONS): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return handlerModules(path);
    if (!/\.ts$/.test(d.name) || d.name.endsWith('.d.ts')) return [];
    const text = readFileSync(path, 'utf8');
    return /export\s+(const|async function|function)\s+handler\b/.test(text)
      ? [relative(FUNCTIONS, path).replace(/\.ts$/, '')]
      : [];
  });
}

/** What a handler's code can do at most: every file it reaches, scanned for the calls that need each grant. */
/**
 * POST /api/checkout/sessions imports use-cases/checkout-session.ts for `buyCreditPack` only; the same module's
 * `verifyCheckoutSession` (fulfilment, which may create the buyer) is what reaches adapters/user-creation.ts, so a
 * file-level graph over-counts it. Checked against the handler's text so the exception cannot outlive the reason.
 */
function onlyBuysPacks(entry: FunctionEntry): boolean {
  if (entry.handler !== 'http/create-checkout-session') return false;
  const text = readFileSync(handlerEntry(entry.handler), 'utf8');
  return !/\b(verifyCheckoutSession|fulfillSession|ensureUser)\b/.test(text);
}

function capability(entry: FunctionEntry) {
  const graph = moduleGraph(handlerEntry(entry.handler));
  const text = graph.files.map((f) => (/\.ts$/.test(f) ? readFileSync(f, 'utf8') : '')).join('\n');
  const has = (re: RegExp) => re.test(text);
  return {
    packages: graph.packages,
    vision: usesVision(handlerEntry(entry.handler)),
    tableRead: has(/new (Get|BatchGet|Query)Command\(/),
    tableWrite: has(/new (Put|Update|TransactWrite)Command\(/),
    tableDelete: has(/new DeleteCommand\(|DeleteRequest:|\bDelete:\s*\{\s*TableName/),
    s3Read: has(/new (GetObject|HeadObject)Command\(|getSignedUrl\(/),
    s3Write: has(/new PutObjectCommand\(|createPresignedPost\(/),
    s3Delete: has(/new DeleteObjects?Command\(/),
    s3List: has(/new (HeadObject|GetObject|ListObjectsV2)Command\(/),
    start: has(/new StartExecutionCommand\(/),
    describe: has(/new DescribeExecutionCommand\(/),
    analytics: has(/new PutRecord(Batch)?Command\(/),
    mail: has(/new SendEmailCommand\(/),
    cognito: [...text.matchAll(/new (Admin\w+)Command\(/g)].map((m) => m[1]!),
    createsUsers:
      graph.files.some((f) => f.endsWith(join('adapters', 'user-creation.ts'))) && !onlyBuysPacks(entry),
  };
}

describe('function catalogue', () => {
  it('lists every handler module under functions/, and every entry’s module exists', () => {
    const catalogued = new Set(catalogue.map((f) => f.handler));
    for (const handler of handlerModules())
      expect(catalogued, `${handler} is not catalogued`).toContain(handler);
    for (const entry of catalogue) {
      expect(existsSync(join(FUNCTIONS, `${entry.handler}.ts`)), entry.handler).toBe(true);
    }
  });

  it('gives every handler that logs the Lambda context in its logs: its export goes through the one handler edge', () => {
    const loggerModule = join(FUNCTIONS, 'common', 'logger.ts');
    for (const entry of catalogue) {
      // A handler that reaches no logger (the local pre-sign-up trigger) has nothing to give a context to.
      if (!moduleGraph(handlerEntry(entry.handler)).files.includes(loggerModule)) continue;
      const text = readFileSync(join(FUNCTIONS, `${entry.handler}.ts`), 'utf8');
      expect(text, entry.handler).toMatch(
        /export const handler = (httpHandler|withLambdaContext)(<[^>]*>)?\(/,
      );
    }
  });

  it('names functions uniquely, as Lambda allows, one function per handler module', () => {
    const names = catalogue.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(catalogue.map((f) => f.handler)).size).toBe(catalogue.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('has an http or webhook entry for every route handler: webhooks exactly for Stripe-signed routes', () => {
    for (const route of routes) {
      const entry = catalogueEntry(route.handler);
      expect(entry.kind, route.path).toBe(route.auth === 'stripe-signature' ? 'webhook' : 'http');
    }
    for (const entry of catalogue.filter((f) => f.kind === 'http' || f.kind === 'webhook')) {
      expect(
        routes.some((r) => r.handler === entry.handler),
        `${entry.handler} serves no route`,
      ).toBe(true);
    }
  });

  it('has ONE rule from handler module to function name', () => {
    expect(functionNameOf('http/me')).toBe('http-me');
    expect(functionNameOf('webhooks/stripe')).toBe('webhooks-stripe');
    expect(functionNameOf('workflow/build-prompt')).toBe('generation-build-prompt');
    expect(() => functionNameOf('http/nothing-here')).toThrow(/not in the function catalogue/);
  });

  it('schedules exactly the scheduled functions and names a trigger for every trigger', () => {
    for (const entry of catalogue) {
      expect(entry.schedule !== undefined, entry.name).toBe(entry.kind === 'scheduled');
      expect(entry.cognitoTrigger !== undefined, entry.name).toBe(entry.kind === 'trigger');
    }
  });

  it('declares the layer, models and secrets its code needs: no more, no less', () => {
    for (const entry of catalogue) {
      const can = capability(entry);
      const native = can.packages.some((p) => p === 'sharp' || p === 'heic-convert');
      expect(entry.assets.includes('sharp-layer'), `${entry.name} sharp layer`).toBe(native);
      expect(entry.assets.includes('vision-models'), `${entry.name} vision models`).toBe(can.vision);
      // functions/config/stripe.ts requires the webhook secret whenever the Stripe key is set.
      const secrets = [
        ...(can.packages.includes('stripe') ? ['stripeSecretKey', 'stripeWebhookSecret'] : []),
        ...(can.packages.includes('openai') ? ['openAiApiKey'] : []),
        // Only code that can create a user keys a sign-up bonus marker with the pepper.
        ...(can.createsUsers ? ['signupBonusPepper'] : []),
      ];
      expect([...(entry.access.secrets ?? [])].sort(), `${entry.name} secrets`).toEqual(secrets.sort());
    }
  });

  it('never declares access the code cannot use (no delete where the code never deletes)', () => {
    for (const entry of catalogue) {
      const can = capability(entry);
      const { access } = entry;
      const name = entry.name;
      const table = access.table ?? [];
      if (table.includes('read')) expect(can.tableRead, `${name} table read`).toBe(true);
      if (table.includes('write')) expect(can.tableWrite, `${name} table write`).toBe(true);
      if (table.includes('delete')) expect(can.tableDelete, `${name} table delete`).toBe(true);
      for (const ops of [access.uploads ?? [], access.results ?? [], access.work ?? []]) {
        if (ops.includes('read')) expect(can.s3Read, `${name} s3 read`).toBe(true);
        if (ops.includes('write')) expect(can.s3Write, `${name} s3 write`).toBe(true);
        if (ops.includes('delete')) expect(can.s3Delete, `${name} s3 delete`).toBe(true);
        if (ops.includes('list')) expect(can.s3List || can.s3Delete, `${name} s3 list`).toBe(true);
      }
      const calls = access.stateMachine ?? [];
      if (calls.includes('start')) expect(can.start, `${name} start`).toBe(true);
      if (calls.includes('describe')) expect(can.describe, `${name} describe`).toBe(true);
      expect(access.analytics === true && !can.analytics, `${name} analytics`).toBe(false);
      expect(access.mail === true && !can.mail, `${name} mail`).toBe(false);
      for (const call of access.cognito ?? []) expect(can.cognito, `${name} cognito`).toContain(call);
    }
  });

  it('deletes only where the product deletes: one headshot, all my data, my account, slot results, queue tickets and leases, sweep markers, headshots past their retention', () => {
    const deleters = (pick: (f: FunctionEntry) => readonly string[] | undefined) =>
      catalogue.filter((f) => pick(f)?.includes('delete')).map((f) => f.name);
    expect(deleters((f) => f.access.table).sort()).toEqual(
      [
        'generation-release-provider-slot',
        'generation-sweeper',
        'http-delete-account',
        'http-delete-headshot',
        'http-delete-my-data',
        'provider-dispatcher',
        'provider-lease-reaper',
      ].sort(),
    );
    // local-object-expiry: the buckets' lifecycle rules on the local S3 (never deployed).
    expect(deleters((f) => f.access.uploads).sort()).toEqual([
      'http-delete-account',
      'http-delete-my-data',
      'local-object-expiry',
    ]);
    expect(deleters((f) => f.access.results).sort()).toEqual(
      [
        'generation-finish-headshot',
        // Headshots past their retention (docs/decisions/011-retention.md).
        'generation-sweeper',
        'http-delete-account',
        'http-delete-headshot',
        'http-delete-my-data',
        'local-object-expiry',
      ].sort(),
    );
    // Only account deletion administers the user pool.
    expect(catalogue.filter((f) => f.access.cognito?.length).map((f) => f.name)).toEqual([
      'http-delete-account',
    ]);
  });
});
