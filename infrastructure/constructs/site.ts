import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, Aws, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as deploy from 'aws-cdk-lib/aws-s3-deployment';
import { stackOutput } from './naming';
import { privateBucketProps } from './storage';
import { Construct, type IConstruct } from 'constructs';
import { acknowledge, nagFinding } from './nag';
import { InvalidContextError } from './refusal';
import type { LegalEntity } from '../../functions/domain/legal-entity';
import { PRERENDERED_WITH_FILE } from '../../frontend/scripts/prerendered-with';

/**
 * What the SPA reads from `/config.json` at boot: the same shape the local stack serves
 * (`infrastructure/local/stand-ins/cloudfront/runtime-config.ts`, `RuntimeConfig`), with the cloud's values.
 */
export interface CloudRuntimeConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  cognitoEndpoint: null;
  apiBase: '/api';
  supportEmail: string;
  /** The company the legal pages name; `null` keeps their Draft notice (functions/domain/legal-entity.ts). */
  legalEntity: LegalEntity | null;
  stage: string;
  authFlowType: 'USER_SRP_AUTH';
}

/** Properties of {@link Site}. */
export interface SiteProps {
  /** The built SPA (`npm run build` → `dist/site`); when it is missing only `config.json` is deployed. */
  siteDir: string;
  api: apigw.IHttpApi;
  runtimeConfig: CloudRuntimeConfig;
  /** Where CloudFront's standard logs and the site bucket's access logs go. */
  logBucket: s3.IBucket;
  /** Origins the browser talks to directly: the uploads (presigned POST) and results (presigned GET) buckets. */
  uploadsEndpoint: string;
  resultsEndpoint: string;
  /** Optional custom domain; the ACM certificate must be in us-east-1 (CloudFront). */
  domain?: { domainName: string; certificateArn: string };
  /** The AWS WAF web ACL (scope CLOUDFRONT, in us-east-1) associated with the distribution. */
  webAclArn: string;
  /**
   * A header CloudFront adds to every request it forwards to the API: the handlers refuse requests without it, so
   * the execute-api endpoint answers only what came through CloudFront (and its web ACL).
   */
  originVerifyHeader: { name: string; value: string };
}

/**
 * The Content-Security-Policy of every response: scripts only from the site (plus WebAssembly compilation, which the
 * in-browser HEIC converter needs — import `heic-to/csp`, never the eval build); API calls to the site itself
 * (`/api`), Cognito's IdP endpoint and the two buckets' regional endpoints; images from the site, `data:`/`blob:`
 * previews and the results bucket; never framed.
 */
export function contentSecurityPolicy(input: {
  region: string;
  urlSuffix: string;
  uploadsEndpoint: string;
  resultsEndpoint: string;
}): string {
  const cognito = `https://cognito-idp.${input.region}.${input.urlSuffix}`;
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${input.resultsEndpoint}`,
    "font-src 'self' data:",
    `connect-src 'self' ${cognito} ${input.uploadsEndpoint} ${input.resultsEndpoint}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    'upgrade-insecure-requests',
  ].join('; ');
}

/**
 * SPA routing on the default behaviour: a path whose last segment has no file extension is served a page of the
 * build — `/` the landing page, `/pricing` the pricing page and `/terms`, `/privacy`, `/refunds` the legal pages (all
 * rendered to HTML at build time: `index.html`, `pricing.html`, `terms.html`, …), every other path (`/dashboard`, `/success`) the empty shell `app.html` the SPA
 * renders into (frontend/scripts/prerender-plugin.ts, `pageFileOf`); asset paths are left alone (a missing asset
 * stays a 404). This replaces distribution-wide custom error responses (403/404 → index.html), which CloudFront
 * would also apply to `/api/*` and turn the API's JSON 403/404 errors into the HTML page with status 200.
 */
export const SPA_ROUTING_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') !== -1) return request;
  var page = uri.replace(/\\/+$/, '');
  var prerendered = ['/pricing', '/terms', '/privacy', '/refunds'];
  request.uri = page === '' ? '/index.html' : prerendered.indexOf(page) !== -1 ? page + '.html' : '/app.html';
  return request;
}`;

/**
 * What the site's asset leaves out of the build (glob patterns, matched at any depth): the source maps Vite writes
 * beside every bundle (frontend/vite.config.ts `build.sourcemap`), which would give anyone the SPA's original sources,
 * and the build's record of what its legal pages were prerendered with, which only the deploy reads
 * (legal-entity.ts).
 */
export const SITE_ASSET_EXCLUDE: readonly string[] = ['*.map', PRERENDERED_WITH_FILE];

/**
 * The SPA (docs/architecture.md §6): a private S3 bucket behind CloudFront with Origin Access Control; security headers on every
 * response (CSP, HSTS, frame-ancestors none / X-Frame-Options DENY, nosniff, referrer policy); `/api/*` forwarded to
 * the HTTP API (no caching, all methods, every viewer header but Host); `config.json` written at deploy from the
 * stack's values so one build serves every stage; the built site deployed with cache headers (hashed assets
 * immutable, everything else revalidated).
 */
export class Site extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  /** `https://<custom domain>` or `https://<id>.cloudfront.net`. */
  readonly origin: string;
  /** Whether the built site was found and is deployed. */
  readonly deploysBuild: boolean;
  /** What `/config.json` says (tokens for the pool's ids until deploy). */
  readonly runtimeConfig: CloudRuntimeConfig;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    this.runtimeConfig = props.runtimeConfig;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      ...privateBucketProps(props.logBucket, 's3/site/'),
      // The site is rebuilt from the repository: nothing in it needs to survive the stack.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    this.responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Headshot Studio security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          override: true,
          contentSecurityPolicy: contentSecurityPolicy({
            region: Aws.REGION,
            urlSuffix: Aws.URL_SUFFIX,
            uploadsEndpoint: props.uploadsEndpoint,
            resultsEndpoint: props.resultsEndpoint,
          }),
        },
        strictTransportSecurity: {
          override: true,
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { override: true, frameOption: cloudfront.HeadersFrameOption.DENY },
        referrerPolicy: {
          override: true,
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
        },
      },
      customHeadersBehavior: {
        customHeaders: [
          {
            header: 'Permissions-Policy',
            value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
            override: true,
          },
        ],
      },
    });

    const spaRouting = new cloudfront.Function(this, 'SpaRouting', {
      comment: 'Serve /index.html for SPA routes (paths without a file extension)',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(SPA_ROUTING_FUNCTION),
    });

    const apiOrigin = new origins.HttpOrigin(
      Fn.join('', [props.api.apiId, '.execute-api.', Aws.REGION, '.', Aws.URL_SUFFIX]),
      {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        customHeaders: { [props.originVerifyHeader.name]: props.originVerifyHeader.value },
      },
    );

    const domain = props.domain;
    if (domain && !/^arn:aws[a-z-]*:acm:us-east-1:/.test(domain.certificateArn)) {
      throw new InvalidContextError([
        `certificateArn "${domain.certificateArn}": request the certificate in us-east-1 (CloudFront takes ACM certificates only from there)`,
      ]);
    }
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Headshot Studio (${Stack.of(this).stackName})`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(domain
        ? {
            domainNames: [domain.domainName],
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
          }
        : {}),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [
          { function: spaRouting, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.responseHeadersPolicy,
          compress: true,
        },
      },
    });
    this.origin = domain
      ? `https://${domain.domainName}`
      : Fn.join('', ['https://', this.distribution.distributionDomainName]);

    acknowledge(
      this.distribution,
      'AwsSolutions-CFR1',
      'A global consumer product: no country is excluded by design (Stripe and Cognito apply their own restrictions).',
    );
    if (!domain) {
      acknowledge(
        this.distribution,
        'AwsSolutions-CFR4',
        'Without a custom domain CloudFront serves its default *.cloudfront.net certificate, whose minimum TLS version cannot be set; with -c domainName/certificateArn the policy is TLSv1.2_2021.',
      );
    }

    this.deploysBuild = existsSync(join(props.siteDir, 'index.html'));
    const deployments: deploy.BucketDeployment[] = [];
    if (this.deploysBuild) {
      // The build's source maps stay on the machine that built it (for debugging a stack trace against that build):
      // left out of the asset itself, so no deployment can publish them.
      const build = deploy.Source.asset(props.siteDir, { exclude: [...SITE_ASSET_EXCLUDE] });
      deployments.push(
        new deploy.BucketDeployment(this, 'DeployAssets', {
          sources: [build],
          destinationBucket: this.bucket,
          exclude: ['*'],
          include: ['assets/*'],
          // Old hashed assets stay for pages loaded before the deploy; their names never collide.
          prune: false,
          cacheControl: [deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
          memoryLimit: 512,
        }),
        new deploy.BucketDeployment(this, 'DeployPages', {
          sources: [build],
          destinationBucket: this.bucket,
          exclude: ['assets/*', 'config.json'],
          cacheControl: [deploy.CacheControl.fromString('public, max-age=0, must-revalidate')],
          distribution: this.distribution,
          distributionPaths: ['/*'],
          memoryLimit: 512,
        }),
      );
    } else {
      Annotations.of(this).addWarningV2(
        'headshot-studio:site-not-built',
        `${props.siteDir} has no index.html: the site is not deployed (only config.json). Run \`npm run build\` before \`cdk deploy\`.`,
      );
    }
    deployments.push(
      new deploy.BucketDeployment(this, 'DeployConfig', {
        sources: [deploy.Source.jsonData('config.json', props.runtimeConfig)],
        destinationBucket: this.bucket,
        prune: false,
        cacheControl: [deploy.CacheControl.fromString('no-store')],
        distribution: this.distribution,
        distributionPaths: ['/config.json'],
      }),
    );
    acknowledgeBucketDeployment(this, deployments);

    stackOutput(this, 'SiteUrl', this.origin);
    stackOutput(this, 'DistributionDomainName', this.distribution.distributionDomainName);
  }
}

/**
 * The findings of CDK's BucketDeployment provider (a singleton Lambda function and role owned by aws-cdk-lib), each
 * acknowledged on that provider only: its runtime, its managed basic-execution policy, and the exact wildcard
 * actions/resources CDK granted it (read the asset from the bootstrap bucket, write and prune the site bucket,
 * invalidate the distribution).
 */
function acknowledgeBucketDeployment(scope: Construct, deployments: deploy.BucketDeployment[]): void {
  const stack = Stack.of(scope);
  const providers = stack.node.children.filter((c: IConstruct) =>
    c.node.id.startsWith('Custom::CDKBucketDeployment'),
  );
  for (const provider of providers) {
    acknowledge(
      provider,
      'AwsSolutions-L1',
      "aws-cdk-lib's BucketDeployment provider: its Python runtime is pinned by the CDK release, not by this app.",
    );
    acknowledge(
      provider,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "aws-cdk-lib's BucketDeployment provider role: the AWS managed basic execution policy only allows writing its own logs.",
    );
  }
  const roles = new Set(deployments.map((d) => d.handlerRole));
  for (const role of roles) {
    const policy = role.node.tryFindChild('DefaultPolicy') as iam.Policy | undefined;
    if (!policy) continue;
    const document = stack.resolve(policy.document) as {
      Statement?: { Action?: unknown; Resource?: unknown }[];
    };
    const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
    for (const statement of document.Statement ?? []) {
      for (const action of list(statement.Action)) {
        if (typeof action === 'string' && action.includes('*')) {
          acknowledge(
            role,
            `AwsSolutions-IAM5[Action::${action}]`,
            "aws-cdk-lib's BucketDeployment grant (read the asset, write and prune the site bucket): generated by CDK.",
          );
        }
      }
      for (const resource of list(statement.Resource)) {
        const finding = nagFinding(resource);
        if (finding.includes('*')) {
          acknowledge(
            role,
            `AwsSolutions-IAM5[Resource::${finding}]`,
            finding === '*'
              ? 'CloudFront CreateInvalidation/GetInvalidation do not support resource-level permissions.'
              : "aws-cdk-lib's BucketDeployment: objects of the CDK asset bucket and of the site bucket (generated by CDK).",
          );
        }
      }
    }
  }
}
