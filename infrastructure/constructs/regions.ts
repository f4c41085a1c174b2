import { SynthRefusal } from './refusal';

/**
 * The AWS regions a stage may be deployed to (docs/deploy.md, "Supported regions"): where everything the stack uses
 * exists. Each was kept or dropped by a source that can be re-read offline:
 * - the pinned AWS Parameters and Secrets Lambda Extension (1.0.103, arm64) has a layer there: aws-cdk-lib's region
 *   facts (`RegionInfo.get(region).paramsAndSecretsLambdaLayerArn('1.0.103', 'arm64')`), which the functions' layer
 *   ARN is read from — 21 regions; elsewhere `cdk synth` crashed with a stack trace (ap-southeast-7, il-central-1);
 * - every resource type and property of the synthesized templates exists there: cfn-lint 1.51.0's per-region
 *   CloudFormation schemas (test/infrastructure/cloud-validators.test.ts runs it). Dropped by it: ap-east-1 (no
 *   `AWS::SES::ConfigurationSet`: no SES) and me-south-1 (its schemas take no `Tags` on `AWS::CloudFront::Function`
 *   nor on `AWS::CloudWatch::Dashboard`);
 * - Cognito threat protection (on in `prod`) is there: AWS Config's rule for it runs in every commercial region but
 *   Thailand, Malaysia, Mexico (Central) and Taipei, none of them here
 *   (https://docs.aws.amazon.com/config/latest/developerguide/cognito-userpool-cust-auth-threat-full-check.html).
 * The OpenAI image API is called over the internet and is the same from every region. The CloudFront web ACL is
 * always in us-east-1 (the edge stack), whatever the stage's region.
 */
export const SUPPORTED_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'sa-east-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-central-1',
  'eu-north-1',
  'eu-south-1',
  'af-south-1',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
] as const;

/** One of {@link SUPPORTED_REGIONS}. */
export type SupportedRegion = (typeof SUPPORTED_REGIONS)[number];

/** Whether `region` is one of {@link SUPPORTED_REGIONS}. */
export function isSupportedRegion(region: string): region is SupportedRegion {
  return (SUPPORTED_REGIONS as readonly string[]).includes(region);
}

/**
 * Refuses a stage in a region where the stack cannot be deployed (before any construct would fail there with a stack
 * trace).
 *
 * @throws {UnsupportedRegionError} when `region` is not one of {@link SUPPORTED_REGIONS}
 */
export function refuseUnsupportedRegion(region: string): void {
  if (!isSupportedRegion(region)) throw new UnsupportedRegionError(region);
}

/** The stage's region is not one of {@link SUPPORTED_REGIONS}: the message names them and how to choose one. */
export class UnsupportedRegionError extends SynthRefusal {
  override readonly name = 'UnsupportedRegionError';

  constructor(readonly region: string) {
    super(
      `Unsupported region ${region}: Headshot Studio deploys to ${SUPPORTED_REGIONS.join(', ')} ` +
        `(where the AWS Parameters and Secrets Lambda Extension, SES and every resource of the stack exist; ` +
        `docs/deploy.md, "Supported regions"): set AWS_REGION to one of them`,
    );
  }
}
