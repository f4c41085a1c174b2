import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Architecture, ParamsAndSecretsVersions } from 'aws-cdk-lib/aws-lambda';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { describe, expect, it } from 'vitest';
import { addStacks } from '../../infrastructure/app-stacks';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';
import {
  refuseUnsupportedRegion,
  SUPPORTED_REGIONS,
  UnsupportedRegionError,
} from '../../infrastructure/constructs/regions';
import { SynthRefusal } from '../../infrastructure/constructs/refusal';
import { settingsFromContext } from '../../infrastructure/constructs/settings';

/** The extension's layer ARN in `region` from CDK's region facts (what the functions' layer is read from). */
const layerArn = (region: string) =>
  RegionInfo.get(region).paramsAndSecretsLambdaLayerArn(
    ParamsAndSecretsVersions.V1_0_103,
    Architecture.ARM_64.name,
  );

/** The backticked region codes of the markdown section that starts with `heading`. */
function regionsOfSection(file: string, heading: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const start = text.indexOf(heading);
  expect(start, `${file} has a "${heading}" section`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + heading.length);
  const end = rest.search(/\n#{1,3} /);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/`([a-z]{2}(?:-[a-z]+)+-\d)`/g)].map((m) => m[1]!);
}

describe('supported regions', () => {
  it('each has the pinned Parameters and Secrets extension layer (arm64)', () => {
    for (const region of SUPPORTED_REGIONS) expect(layerArn(region), region).toMatch(/^arn:aws:lambda:/);
  });

  it.each(['ap-southeast-7', 'il-central-1', 'ap-east-1', 'me-south-1', 'cn-north-1'])(
    'synth refuses %s with one line that names the supported regions, before building a construct',
    (region) => {
      const app = new App({ context: { stubFunctionCode: 'true' } });
      const synth = () => addStacks(app, settingsFromContext(app.node), { account: '123456789012', region });
      expect(synth).toThrow(UnsupportedRegionError);
      expect(synth).toThrow(SynthRefusal);
      expect(app.node.children).toHaveLength(0);
      const message = (() => {
        try {
          refuseUnsupportedRegion(region);
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      })();
      expect(message).not.toContain('\n');
      expect(message).toMatch(
        new RegExp(`^Unsupported region ${region}: Headshot Studio deploys to us-east-1, `),
      );
      for (const supported of SUPPORTED_REGIONS) expect(message).toContain(supported);
      expect(message).toMatch(/set AWS_REGION to one of them$/);
    },
  );

  it('accepts every supported region', () => {
    for (const region of SUPPORTED_REGIONS) expect(() => refuseUnsupportedRegion(region)).not.toThrow();
  });

  it('are the ones docs/deploy.md and the README list', () => {
    const sorted = [...SUPPORTED_REGIONS].sort();
    expect(regionsOfSection('docs/deploy.md', '## Supported regions').sort()).toEqual(sorted);
    expect(regionsOfSection('README.md', '## Supported regions').sort()).toEqual(sorted);
  });
});
