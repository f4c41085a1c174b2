import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { accessFor, awsUsage } from '../../infrastructure/constructs/access';
import { routeId } from '../../infrastructure/constructs/api';
import { bundleHash, moduleGraph, nativeModulesOf } from '../../infrastructure/constructs/app-function';
import { functionArnKey, pascalCase } from '../../infrastructure/constructs/naming';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { contentSecurityPolicy, SPA_ROUTING_FUNCTION } from '../../infrastructure/constructs/site';
import { bucketPrefix } from '../../infrastructure/constructs/storage';

describe('naming', () => {
  it('uses the local stack’s PascalCase rule for ASL keys', () => {
    expect(functionArnKey('generation-prepare-references')).toBe('GenerationPrepareReferencesFunctionArn');
    expect(pascalCase('http/create-checkout-session')).toBe('HttpCreateCheckoutSession');
    expect(routeId({ method: 'GET', path: '/api/headshots/{id}/download' })).toBe(
      'GetApiHeadshotsIdDownload',
    );
  });

  it('keeps bucket names within 63 characters', () => {
    expect(bucketPrefix('HeadshotStudio-dev')).toBe('headshotstudio-dev');
    expect(() => bucketPrefix(`HeadshotStudio-${'x'.repeat(30)}`)).toThrow(/shorter stage/);
  });
});

describe('accessFor', () => {
  const http = (handler: string, auth: ('jwt' | 'public' | 'stripe-signature')[], packages: string[] = []) =>
    accessFor({ name: handler.replaceAll('/', '-'), handler, kind: 'http', routeAuth: auth, packages });

  it('gives public-only handlers nothing at all', () => {
    expect(http('http/packs', ['public'])).toEqual({
      table: false,
      uploads: [],
      results: [],
      workflow: false,
      secrets: [],
      analytics: false,
    });
    // The analytics route: its rate limit needs the table, its sink the stream; still no S3 and no secret.
    expect(
      accessFor({
        name: 'http-analytics-events',
        handler: 'http/analytics-events',
        kind: 'http',
        routeAuth: ['public'],
        packages: [],
        sdkImports: {
          '@aws-sdk/lib-dynamodb': ['UpdateCommand'],
          '@aws-sdk/client-firehose': ['PutRecordBatchCommand'],
        },
      }),
    ).toEqual({ table: true, uploads: [], results: [], workflow: false, secrets: [], analytics: true });
  });

  it('gives the Stripe webhook the table and the Stripe secrets, no S3', () => {
    expect(http('webhooks/stripe', ['stripe-signature'], ['stripe', 'zod'])).toEqual({
      table: true,
      uploads: [],
      results: [],
      workflow: false,
      secrets: ['stripeSecretKey', 'stripeWebhookSecret'],
      analytics: false,
    });
  });

  it('narrows S3 and Step Functions to what the code imports, and secrets follow imports', () => {
    const storage = {
      '@aws-sdk/client-s3': [
        'DeleteObjectCommand',
        'GetObjectCommand',
        'HeadObjectCommand',
        'PutObjectCommand',
      ],
      '@aws-sdk/s3-presigned-post': ['createPresignedPost'],
    };
    const executions = { '@aws-sdk/client-sfn': ['DescribeExecutionCommand', 'StartExecutionCommand'] };
    const generation = accessFor({
      name: 'http-create-generation',
      handler: 'http/create-generation',
      kind: 'http',
      routeAuth: ['jwt'],
      packages: [],
      sdkImports: { ...storage, ...executions },
    });
    expect(generation).toMatchObject({
      workflow: true,
      uploads: ['read', 'write', 'delete', 'list'],
      results: ['read', 'delete', 'list'], // never write: only the workflow writes results
    });
    // GET /me reaches only the shared client module (S3Client, SFNClient): no S3, no workflow.
    expect(
      accessFor({
        name: 'http-me',
        handler: 'http/me',
        kind: 'http',
        routeAuth: ['jwt'],
        packages: [],
        sdkImports: { '@aws-sdk/client-s3': ['S3Client'], '@aws-sdk/client-sfn': ['SFNClient'] },
      }),
    ).toMatchObject({ table: true, uploads: [], results: [], workflow: false, secrets: [] });
    expect(http('http/create-checkout-session', ['jwt'], ['stripe']).secrets).toEqual([
      'stripeSecretKey',
      'stripeWebhookSecret',
    ]);
  });

  it('reads SDK usage from imported names', () => {
    expect(awsUsage({ '@aws-sdk/s3-request-presigner': ['getSignedUrl'] })).toEqual({
      s3: ['read', 'list'],
      workflow: false,
      analytics: false,
      table: false,
    });
    expect(awsUsage({ '@aws-sdk/client-s3': ['*'] }).s3).toEqual(['read', 'write', 'delete', 'list']);
    expect(awsUsage({ '@aws-sdk/client-s3': ['S3Client'] }).s3).toEqual([]);
  });

  it('gives workflow tasks S3 and the OpenAI key only when they import openai; triggers only the table', () => {
    const task = (name: string, packages: string[], sdkImports = {}) =>
      accessFor({ name, handler: name, kind: 'task', packages, sdkImports });
    const s3 = { '@aws-sdk/client-s3': ['GetObjectCommand', 'PutObjectCommand', 'DeleteObjectCommand'] };
    expect(task('generation-generate-headshot', ['openai', 'sharp'], s3)).toMatchObject({
      secrets: ['openAiApiKey'],
      uploads: ['read', 'write', 'list'], // never delete uploads: they expire
      results: ['read', 'write', 'delete', 'list'],
    });
    expect(task('generation-finalize', [])).toMatchObject({ secrets: [], uploads: [], results: [] });
    expect(
      accessFor({ name: 'cognito-post-confirmation', handler: 't', kind: 'trigger', packages: [] }),
    ).toEqual({
      table: true,
      uploads: [],
      results: [],
      workflow: false,
      secrets: [],
      analytics: false,
    });
  });
});

describe('module graph', () => {
  function project(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'graph-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('follows relative imports (static, re-export, dynamic) but not type-only ones', () => {
    const dir = project({
      'handler.ts':
        "import { a } from './a';\nexport * from './b.js';\nconst c = await import('./c');\nimport type { T } from './types';",
      'a.ts': "import sharp from 'sharp';\nimport { z } from 'zod';",
      'b.ts':
        "import {\n  S3Client,\n  type S3ClientConfig,\n  GetObjectCommand as Get,\n} from '@aws-sdk/client-s3';",
      'c.ts': "import data from './data.json';",
      'data.json': '{}',
      'types.ts': "import OpenAI from 'openai';",
    });
    const graph = moduleGraph(join(dir, 'handler.ts'));
    expect(graph.packages).toEqual(['@aws-sdk/client-s3', 'sharp', 'zod']);
    expect(graph.files.map((f) => f.slice(dir.length + 1))).toEqual([
      'a.ts',
      'b.ts',
      'c.ts',
      'data.json',
      'handler.ts',
    ]);
    expect(graph.sdkImports).toEqual({ '@aws-sdk/client-s3': ['GetObjectCommand', 'S3Client'] });
    expect(nativeModulesOf(join(dir, 'handler.ts'))).toEqual(['sharp']);
  });

  it('changes the bundle hash when any reached file or setting changes', () => {
    const dir = project({ 'h.ts': "import './x';", 'x.ts': 'export const x = 1;' });
    const before = bundleHash(join(dir, 'h.ts'), { minify: true });
    expect(bundleHash(join(dir, 'h.ts'), { minify: true })).toBe(before);
    expect(bundleHash(join(dir, 'h.ts'), { minify: false })).not.toBe(before);
    writeFileSync(join(dir, 'x.ts'), 'export const x = 2;');
    expect(bundleHash(join(dir, 'h.ts'), { minify: true })).not.toBe(before);
  });
});

describe('site', () => {
  const route = (uri: string) =>
    (
      runInNewContext(`${SPA_ROUTING_FUNCTION}; handler(event)`, { event: { request: { uri } } }) as {
        uri: string;
      }
    ).uri;

  it('serves the prerendered pages, the SPA shell for other routes, and leaves files alone', () => {
    expect(route('/')).toBe('/index.html');
    expect(route('/pricing')).toBe('/pricing.html');
    expect(route('/pricing/')).toBe('/pricing.html');
    expect(route('/dashboard')).toBe('/app.html');
    expect(route('/success')).toBe('/app.html');
    expect(route('/gallery/01J9Z8')).toBe('/app.html');
    expect(route('/assets/index-Bf3kZ2xQ.js')).toBe('/assets/index-Bf3kZ2xQ.js');
    expect(route('/config.json')).toBe('/config.json');
    expect(route('/images/logo.svg')).toBe('/images/logo.svg');
  });

  it('builds a CSP that allows the site, Cognito and the two buckets, and never framing', () => {
    const csp = contentSecurityPolicy({
      region: 'eu-west-1',
      urlSuffix: 'amazonaws.com',
      uploadsEndpoint: 'https://up.s3.eu-west-1.amazonaws.com',
      resultsEndpoint: 'https://res.s3.eu-west-1.amazonaws.com',
    });
    expect(csp).toContain(
      "connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com https://up.s3.eu-west-1.amazonaws.com https://res.s3.eu-west-1.amazonaws.com",
    );
    expect(csp).toContain("img-src 'self' data: blob: https://res.s3.eu-west-1.amazonaws.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp.length).toBeLessThan(1783); // CloudFront's limit for the CSP header value
  });
});

describe('settingsFromContext', () => {
  const settings = (context: Record<string, unknown>) => settingsFromContext(new App({ context }).node);

  it('defaults to dev with the handlers’ defaults', () => {
    expect(settings({})).toMatchObject({
      stage: 'dev',
      cognitoFeaturePlan: 'essentials',
      generationMaxConcurrency: 6,
      logLevel: 'INFO',
      stubFunctionCode: false,
    });
  });

  it('reads CLI strings and rejects every invalid value at once', () => {
    expect(
      settings({ stage: 'prod', generationMaxConcurrency: '3', stubFunctionCode: 'true' }),
    ).toMatchObject({
      stage: 'prod',
      generationMaxConcurrency: 3,
      stubFunctionCode: true,
    });
    expect(() =>
      settings({ stage: 'Prod!', domainName: 'x.example.com', generationMaxConcurrency: '9' }),
    ).toThrow(/stage[\s\S]*certificateArn[\s\S]*generationMaxConcurrency/);
  });

  it('refuses the offline image provider on prod, allows it on other stages', () => {
    expect(settings({ imageProvider: 'local' })).toMatchObject({ imageProvider: 'local' });
    expect(() => settings({ stage: 'prod', imageProvider: 'local' })).toThrow(/imageProvider "local".*prod/);
    expect(settings({ stage: 'prod' }).imageProvider).toBeUndefined();
  });

  it('reads the provider capacity and the generation deadline', () => {
    expect(settings({})).toMatchObject({
      providerImagesPerMinute: undefined,
      providerMaxConcurrency: undefined,
      generationDeadlineMinutes: 30,
    });
    expect(
      settings({
        providerImagesPerMinute: '7.5',
        providerMaxConcurrency: '12',
        generationDeadlineMinutes: '45',
      }),
    ).toMatchObject({
      providerImagesPerMinute: 7.5,
      providerMaxConcurrency: 12,
      generationDeadlineMinutes: 45,
    });
    expect(() =>
      settings({
        providerImagesPerMinute: '0',
        providerMaxConcurrency: '1.5',
        generationDeadlineMinutes: '-1',
      }),
    ).toThrow(/providerImagesPerMinute[\s\S]*providerMaxConcurrency[\s\S]*generationDeadlineMinutes/);
  });
});
