import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { InvalidContextError } from '../../infrastructure/constructs/refusal';
import { productionOf } from '../../infrastructure/constructs/production';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { LEGAL_CONTEXT } from './legal-context';
import { expectProtectedTableAndUserPool, testStack } from './helpers';

const settings = (context: Record<string, unknown>) => settingsFromContext(new App({ context }).node);
const MAIL = { mailFrom: 'headshots@example.com' };
/** What a production stage's context needs besides the mail: the legal entity (issue 35 item 2). */
const PROD = { ...MAIL, ...LEGAL_CONTEXT };

describe('the production setting (context `production`)', () => {
  it('defaults to true exactly on stage prod or production', () => {
    expect(productionOf('prod')).toBe(true);
    expect(productionOf('production')).toBe(true);
    expect(productionOf('dev')).toBe(false);
    expect(productionOf('prod-eu')).toBe(false);
    expect(settings({}).production).toBe(false);
    expect(settings({ stage: 'production', ...PROD }).production).toBe(true);
    expect(settings({ stage: 'dev', production: 'true', ...PROD }).production).toBe(true);
    expect(settings({ stage: 'prod', production: 'false' }).production).toBe(false);
    expect(settings({ stage: 'prod', production: false }).production).toBe(false);
  });

  it('refuses a value that is not true or false, in one InvalidContextError', () => {
    expect(() => settings({ stage: 'prod', production: 'yes', ...MAIL })).toThrow(InvalidContextError);
    expect(() => settings({ production: 'yes' })).toThrow(
      /^Invalid context: production "yes": true or false/,
    );
  });

  it('puts every prod refusal on stage production, and none on prod with production=false', () => {
    expect(() => settings({ stage: 'production' })).toThrow(/prod needs mailFrom/);
    expect(() => settings({ stage: 'production', imageProvider: 'local', ...MAIL })).toThrow(
      /imageProvider "local": the offline provider is refused on production/,
    );
    expect(() => settings({ stage: 'dev', production: 'true', imageProvider: 'local', ...MAIL })).toThrow(
      /imageProvider "local"/,
    );
    expect(settings({ stage: 'prod', production: 'false', imageProvider: 'local' })).toMatchObject({
      stage: 'prod',
      production: false,
      imageProvider: 'local',
    });
  });

  it('protects and retains the stateful resources on stage production (from the stage default)', () => {
    const { template } = testStack({ stage: 'production', ...MAIL });
    expectProtectedTableAndUserPool(template);
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
    template.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'RetainExceptOnCreate' });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ STAGE: 'production', PRODUCTION: 'true' }) },
    });
    expect(() => testStack({ stage: 'production' }, 'NoMail-production')).toThrow(/prod needs mailFrom/);
    expect(() =>
      testStack({ stage: 'production', ...MAIL, imageProvider: 'local' }, 'Local-production'),
    ).toThrow(/imageProvider "local" is refused on production/);
  });

  it('destroys with the stack on stage prod with production=false', () => {
    const { template } = testStack({ stage: 'prod', production: false, imageProvider: 'local' });
    template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.not(Match.objectLike({ DeletionProtectionEnabled: true }))],
    });
    template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Delete' });
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolAddOns: Match.absent(),
    });
    expect(
      Object.values(template.findResources('AWS::S3::Bucket', { DeletionPolicy: 'RetainExceptOnCreate' })),
    ).toEqual([]);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ STAGE: 'prod', PRODUCTION: 'false' }) },
    });
  });
});
