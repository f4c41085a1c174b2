import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogue, catalogueEntry, functionNameOf, type FunctionEntry } from '../../functions/catalogue';
import { queues } from '../../functions/queue-catalogue';
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

/**
 * Each handler's code as its bundle holds it: esbuild follows its imports and drops what nothing uses (packages stay
 * outside), so a call in a module it imports for something else does not count, as in the deployed bundle.
 */
const bundles = new Map<string, string>();
beforeAll(async () => {
  await Promise.all(
    catalogue.map(async (entry) => {
      const { outputFiles } = await build({
        entryPoints: [handlerEntry(entry.handler)],
        bundle: true,
        write: false,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        logLevel: 'silent',
      });
      bundles.set(entry.handler, outputFiles.map((f) => f.text).join('\n'));
    }),
  );
});

/**
 * What a handler's code does: its bundle scanned for the calls that need each grant (esbuild may number a name it
 * renames: `GetCommand2`), and its import graph for the packages, models and user creation it reaches.
 */
function capability(entry: FunctionEntry) {
  const graph = moduleGraph(handlerEntry(entry.handler));
  const text = bundles.get(entry.handler)!.replace(/(new \w+Command)\d+\(/g, '$1(');
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
    s3Lists: has(/new ListObjectsV2Command\(/),
    start: has(/new StartExecutionCommand\(/),
    describe: has(/new DescribeExecutionCommand\(/),
    callback: has(/new SendTask(Success|Failure|Heartbeat)Command\(/),
    sendsMessages: has(/new SendMessage(Batch)?Command\(/),
    analytics: has(/new PutRecord(Batch)?Command\(/),
    mail: has(/new SendEmailCommand\(/),
    cognito: [...text.matchAll(/new (Admin\w+)Command\(/g)].map((m) => m[1]!),
    createsUsers:
      graph.files.some((f) => f.endsWith(join('adapters', 'user-creation.ts'))) && !onlyBuysPacks(entry),
  };
}

/**
 * Calls a function's bundle holds that its code never makes, found by reading the code: the scan sees a module's
 * functions, not which of them a path calls. The local IAM check decides the calls that are made, at run time, against
 * the synthesized role, in `npm start` and the integration tests (docs/decisions/016-local-iam.md).
 */
const NEVER_MADE_CALLS: Record<string, string> = {
  'generation-call-provider deletes from the table':
    'returnPermit (adapters/provider-queue/leases.ts) takes only the gate update of giveBack’s pair; the lease item’s Delete is release-provider-slot’s.',
  'generation-execution-ended describes executions':
    'compensateEndedExecution shares use-cases/reconcile-generation.ts with reconcileGeneration, whose default ports name describeExecutionStatus; the event already says how the execution ended.',
  'http-analytics-events reads the table':
    'its quota subject is the caller’s IP (anon#ip-…), and consumeQuota reads the user item only for a signed-in subject’s refused transaction.',
  'http-delete-headshot reads objects':
    'it imports headshotNotFound from use-cases/headshot-view.ts, whose default ports name headshotUrls (presigned GETs); a deleted headshot is never shown.',
  'http-delete-headshot-version reads objects':
    'it imports headshotNotFound from use-cases/headshot-view.ts, whose default ports name headshotUrls (presigned GETs); a deleted version is never shown.',
};

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
      for (const ops of [
        access.uploads ?? [],
        access.results ?? [],
        access.work ?? [],
        access.partial ?? [],
      ]) {
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

  it('declares all the access its code uses (no function lacks a grant a call of its code needs)', () => {
    const flagged: string[] = [];
    const need = (ok: boolean, name: string, what: string) => {
      if (!ok) flagged.push(`${name} ${what}`);
    };
    for (const entry of catalogue) {
      const can = capability(entry);
      const { access, name } = entry;
      const table = access.table ?? [];
      need(!can.tableRead || table.includes('read'), name, 'reads the table');
      need(!can.tableWrite || table.includes('write'), name, 'writes the table');
      need(!can.tableDelete || table.includes('delete'), name, 'deletes from the table');
      // Which bucket and prefix a call names is decided at run time, where the local IAM check decides each call
      // against the synthesized role (test/integration/local-iam.test.ts); here some object grant covers each kind.
      const objects = [
        access.uploads ?? [],
        access.results ?? [],
        access.work ?? [],
        access.partial ?? [],
      ].flat();
      need(!can.s3Read || objects.includes('read'), name, 'reads objects');
      need(!can.s3Write || objects.includes('write'), name, 'writes objects');
      need(!can.s3Delete || objects.includes('delete'), name, 'deletes objects');
      need(!can.s3Lists || objects.includes('list'), name, 'lists objects');
      const calls = access.stateMachine ?? [];
      need(!can.start || calls.includes('start'), name, 'starts executions');
      need(!can.describe || calls.includes('describe'), name, 'describes executions');
      need(!can.callback || calls.includes('callback'), name, 'answers task tokens');
      need(!can.analytics || access.analytics === true, name, 'puts analytics records');
      need(!can.mail || access.mail === true, name, 'sends mail');
      for (const call of can.cognito)
        need((access.cognito ?? []).includes(call as never), name, `calls ${call}`);
      // A queue's producers get sqs:SendMessage (functions/queue-catalogue.ts, infrastructure/constructs/queues.ts).
      need(!can.sendsMessages || queues.some((q) => q.producers.includes(name)), name, 'sends to a queue');
    }
    // Each exception is still needed: one the scan no longer flags goes from the list.
    expect(flagged.sort()).toEqual(Object.keys(NEVER_MADE_CALLS).sort());
  });

  it('deletes only where the product deletes: one headshot, one version, all my data, my account, the wizard’s draft, a team membership, slot results, queue tickets and leases, sweep markers, headshots past their retention', () => {
    const deleters = (pick: (f: FunctionEntry) => readonly string[] | undefined) =>
      catalogue.filter((f) => pick(f)?.includes('delete')).map((f) => f.name);
    expect(deleters((f) => f.access.table).sort()).toEqual(
      [
        'generation-release-provider-slot',
        'generation-sweeper',
        'http-delete-account',
        'http-delete-draft',
        'http-delete-headshot',
        'http-delete-headshot-version',
        'http-delete-my-data',
        'http-save-draft',
        // Leaving or removal from a team: "my teams" and the member's shared headshots; unsharing: the team's
        // SHARED# item and the member's record of it (docs/teams.md).
        'http-team-membership',
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
        'http-delete-headshot-version',
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
