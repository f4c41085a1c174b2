import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { addStacks } from '../../infrastructure/app-stacks';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { testTempDir } from '../helpers/temp-dir';
import { deployedFunctions } from '../../functions/catalogue';
import { ORIGIN_VERIFY_VARIABLE } from '../../functions/http/origin-verify';
import { pascalCase } from '../../infrastructure/constructs/naming';
import { appFunctions, testStack } from './helpers';

/**
 * Issue 34 item 5, as the templates show it: no source map in what the site deploys, the CloudFront web ACL's blocks on
 * the stage's dashboard whatever the region, the user pool created after the configuration set it names, and the
 * origin secret where docs/decisions/015-origin-secret.md keeps it.
 */

/** A built site as Vite lays it out: pages, hashed bundles and their source maps. */
function builtSite(): string {
  const dir = testTempDir('site-');
  mkdirSync(join(dir, 'assets'));
  const files: Record<string, string> = {
    'index.html': '<!doctype html><script src="/assets/index-Bf3kZ2xQ.js"></script>',
    'app.html': '<!doctype html>',
    'assets/index-Bf3kZ2xQ.js': 'console.log(1);\n//# sourceMappingURL=index-Bf3kZ2xQ.js.map',
    'assets/index-Bf3kZ2xQ.js.map': '{"version":3,"sources":["../../frontend/src/main.tsx"]}',
    'assets/index-C1a2b3c4.css.map': '{"version":3}',
    'prerender.js.map': '{"version":3}',
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
  );
}

/** A dashboard body with its tokens replaced by `TOKEN` (they sit inside JSON strings), parsed. */
function dashboardBody(template: Template): { widgets: { properties: Record<string, unknown> }[] } {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  const body = (dashboard!.Properties as { DashboardBody: unknown }).DashboardBody;
  const join = (body as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  const text = join ? join[1].map((part) => (typeof part === 'string' ? part : 'TOKEN')).join(join[0]) : body;
  return JSON.parse(text as string) as { widgets: { properties: Record<string, unknown> }[] };
}

describe('hygiene', () => {
  it('deploys no source map: the site asset leaves every .map file out, and keeps the rest of the build', () => {
    const siteDir = builtSite();
    const { app, template } = testStack({ siteDir }, 'Maps-dev');
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment'));
    const keys = new Set(
      deployments.flatMap((d) => (d.Properties as { SourceObjectKeys: unknown[] }).SourceObjectKeys),
    );
    const outdir = app.synth().directory;
    const staged = [...keys]
      .filter((k): k is string => typeof k === 'string' && k.endsWith('.zip'))
      .map((key) => filesUnder(join(outdir, `asset.${key.replace(/\.zip$/, '')}`)).sort());
    // The pages and the assets deploy one asset of the build; config.json is its own.
    const builds = staged.filter((files) => files.includes('index.html'));
    expect(builds).toHaveLength(1);
    expect(builds[0]!.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(builds[0]).toEqual(['app.html', 'assets/index-Bf3kZ2xQ.js', 'index.html']);
    expect(staged.flat().filter((f) => f.endsWith('.map'))).toEqual([]);
    // The build itself keeps its maps (for reading a stack trace against it).
    expect(readFileSync(join(siteDir, 'assets/index-Bf3kZ2xQ.js.map'), 'utf8')).toContain('main.tsx');
  });

  it('draws the CloudFront web ACL’s blocks on the stage’s dashboard outside us-east-1, read in us-east-1', () => {
    const app = new App({ context: { stubFunctionCode: 'true' } });
    const { main, edge } = addStacks(app, settingsFromContext(app.node), {
      account: '123456789012',
      region: 'eu-west-1',
    });
    const edgeTemplate = Template.fromStack(edge!);
    const [webAcl] = Object.values(
      edgeTemplate.findResources('AWS::WAFv2::WebACL', { Properties: { Scope: 'CLOUDFRONT' } }),
    );
    const metricName = (webAcl!.Properties as { VisibilityConfig: { MetricName: string } }).VisibilityConfig
      .MetricName;
    const waf = dashboardBody(Template.fromStack(main))
      .widgets.flatMap((w) => (w.properties.metrics as unknown[][] | undefined) ?? [])
      .filter((m) => m[0] === 'AWS/WAFV2' && m.includes(metricName));
    expect(waf).toHaveLength(1);
    const [metric] = waf;
    expect(metric!.slice(0, 2)).toEqual(['AWS/WAFV2', 'BlockedRequests']);
    const dimensions = metric!.slice(2).filter((part) => typeof part === 'string');
    const pairs = dimensions.flatMap((part, i) => (i % 2 === 0 ? [`${part}=${dimensions[i + 1]}`] : []));
    expect(pairs.sort()).toEqual(['Rule=ALL', `WebACL=${metricName}`]);
    // A CLOUDFRONT web ACL's metrics exist only in us-east-1; the dashboard reads them there.
    expect(metric!.at(-1)).toMatchObject({ region: 'us-east-1', stat: 'Sum' });
    // The name is a literal: no cross-region export for it.
    expect(JSON.stringify(metric)).not.toMatch(/TOKEN|Fn::|Ref/);
  });

  it('gives the origin secret to the route functions only, as a dynamic reference resolved at deploy (decision 015)', () => {
    const { template } = testStack({}, 'Origin-dev');
    const holders = [...appFunctions(template)]
      .filter(([, { resource }]) => {
        const env = resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined;
        return env?.Variables?.[ORIGIN_VERIFY_VARIABLE] !== undefined;
      })
      .map(([id, { resource }]) => {
        const value = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables[
          ORIGIN_VERIFY_VARIABLE
        ];
        expect(JSON.stringify(value), id).toMatch(/^\{"Fn::Join":\["",\["\{\{resolve:secretsmanager:/);
        return id;
      });
    const routeFunctions = deployedFunctions
      .filter((f) => f.kind === 'http' || f.kind === 'webhook')
      .map((f) => pascalCase(f.name));
    expect(holders.sort()).toEqual(routeFunctions.sort());
  });

  it('creates the user pool after the SES configuration set it names (DependsOn)', () => {
    const { template } = testStack({ mailFrom: 'headshots@example.com' }, 'MailSet-dev');
    const sets = Object.keys(template.findResources('AWS::SES::ConfigurationSet'));
    expect(sets).toHaveLength(1);
    const pools = Object.values(template.findResources('AWS::Cognito::UserPool'));
    expect(pools).toHaveLength(1);
    const pool = pools[0]!;
    const configurationSet = (pool.Properties as { EmailConfiguration: { ConfigurationSet: unknown } })
      .EmailConfiguration.ConfigurationSet;
    const refs = JSON.stringify(configurationSet).includes(sets[0]!);
    expect(refs || ((pool.DependsOn as string[] | undefined) ?? []).includes(sets[0]!)).toBe(true);
  });
});
