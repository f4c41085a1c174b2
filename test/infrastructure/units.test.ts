import { mkdirSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { routeId } from '../../infrastructure/constructs/api';
import { cognitoActions, objectActions, tableActions } from '../../infrastructure/constructs/grants';
import { bundleHash } from '../../infrastructure/constructs/app-function';
import { moduleGraph, nativeModulesOf } from '../../infrastructure/constructs/module-graph';
import { functionArnKey, pascalCase } from '../../infrastructure/constructs/naming';
import { InvalidContextError } from '../../infrastructure/constructs/refusal';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { LEGAL_CONTEXT } from './legal-context';
import { contentSecurityPolicy, SPA_ROUTING_FUNCTION } from '../../infrastructure/constructs/site';
import { bucketPrefix } from '../../infrastructure/constructs/storage';
import { testTempDir } from '../helpers/temp-dir';

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

describe('grants', () => {
  it('maps declared table operations to item actions, never Scan', () => {
    expect(tableActions(['read'])).toEqual(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query']);
    expect(tableActions(['write'])).not.toContain('dynamodb:DeleteItem');
    expect(tableActions(['read', 'write', 'delete'])).toEqual(
      expect.arrayContaining(['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:UpdateItem']),
    );
    expect(tableActions()).toEqual([]);
    expect(tableActions(['read', 'write', 'delete'])).not.toContain('dynamodb:Scan');
  });

  it('maps object operations to object actions, list apart, and user pool calls to cognito-idp actions', () => {
    expect(objectActions(['list', 'read'])).toEqual(['s3:GetObject']);
    expect(objectActions(['delete', 'write'])).toEqual(['s3:PutObject', 's3:DeleteObject']);
    expect(cognitoActions(['AdminDeleteUser'])).toEqual(['cognito-idp:AdminDeleteUser']);
  });
});

describe('module graph', () => {
  function project(files: Record<string, string>): string {
    const dir = testTempDir('graph-');
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
    expect(route('/terms')).toBe('/terms.html');
    expect(route('/privacy/')).toBe('/privacy.html');
    expect(route('/refunds')).toBe('/refunds.html');
    expect(route('/terms/x')).toBe('/app.html');
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
      settings({
        stage: 'prod',
        mailFrom: 'headshots@example.com',
        ...LEGAL_CONTEXT,
        generationMaxConcurrency: '3',
        stubFunctionCode: 'true',
      }),
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
    expect(
      settings({ stage: 'prod', mailFrom: 'headshots@example.com', ...LEGAL_CONTEXT }).imageProvider,
    ).toBeUndefined();
  });

  it('requires an SES sender on prod, for Cognito’s mail (mailFrom, or cognitoMailFrom)', () => {
    expect(() => settings({ stage: 'prod' })).toThrow(/prod needs mailFrom/);
    expect(settings({ stage: 'prod', mailFrom: 'a@example.com', ...LEGAL_CONTEXT }).cognitoMailFrom).toBe(
      'a@example.com',
    );
    expect(
      settings({
        stage: 'prod',
        mailFrom: 'a@example.com',
        cognitoMailFrom: 'auth@example.com',
        ...LEGAL_CONTEXT,
      }),
    ).toMatchObject({ mailFrom: 'a@example.com', cognitoMailFrom: 'auth@example.com' });
    expect(settings({}).cognitoMailFrom).toBeUndefined();
    expect(() => settings({ sesRegion: 'nowhere' })).toThrow(/sesRegion/);
  });

  it('reads the SES identities: the sender’s domain by default, and refuses a sender outside its identity', () => {
    expect(settings({ stage: 'prod', mailFrom: 'headshots@Example.com', ...LEGAL_CONTEXT })).toMatchObject({
      mailIdentity: 'example.com',
      cognitoMailIdentity: 'example.com',
    });
    expect(
      settings({ mailFrom: 'headshots@example.com', mailIdentity: 'headshots@example.com' }),
    ).toMatchObject({ mailIdentity: 'headshots@example.com', cognitoMailIdentity: 'headshots@example.com' });
    // A subdomain's address may send as the parent domain (SES), but Cognito takes only the sender's own domain.
    expect(
      settings({
        mailFrom: 'headshots@mail.example.com',
        mailIdentity: 'example.com',
        cognitoMailFrom: 'auth@example.com',
      }),
    ).toMatchObject({ mailIdentity: 'example.com', cognitoMailIdentity: 'example.com' });
    expect(() => settings({ mailFrom: 'headshots@mail.example.com', mailIdentity: 'example.com' })).toThrow(
      /cognitoMailIdentity "example\.com": Cognito sends only from the identity's own domain.*cognitoMailIdentity=mail\.example\.com/,
    );
    expect(() => settings({ mailFrom: 'headshots@example.com', mailIdentity: 'other.org' })).toThrow(
      /mailIdentity "other\.org": headshots@example\.com is not in that identity/,
    );
    expect(() => settings({ mailFrom: 'headshots@example.com', mailIdentity: 'ops@example.com' })).toThrow(
      /mailIdentity "ops@example\.com": the address identity must be the sender itself/,
    );
    expect(() =>
      settings({ cognitoMailFrom: 'auth@example.com', cognitoMailIdentity: 'not a domain' }),
    ).toThrow(/cognitoMailIdentity "not a domain": an e-mail address or a domain/);
  });

  it('refuses on one line that says what to do (InvalidContextError)', () => {
    try {
      settings({ stage: 'prod', generationMaxConcurrency: '9', ...LEGAL_CONTEXT });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidContextError);
      expect((error as InvalidContextError).problems).toHaveLength(2);
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).toMatch(
        /^Invalid context: generationMaxConcurrency .*; prod needs mailFrom .*pass -c mailFrom=/,
      );
    }
  });

  it('reads the target: aws by default, or localstack', () => {
    expect(settings({}).target).toBe('aws');
    expect(settings({ target: 'localstack' }).target).toBe('localstack');
    expect(() => settings({ target: 'gcp' })).toThrow(/target "gcp"/);
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
