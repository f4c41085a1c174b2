import { describe, expect, it } from 'vitest';
import { appFunctions, roleStatements, testStack } from './helpers';

/*
 * The product's e-mails in the cloud (the "headshots ready" e-mail, the welcome, the receipts): SES v2 SendEmail,
 * allowed only to the functions that send them, only for the configured identity (and configuration set), only from
 * the configured address.
 */

/**
 * The functions that send mail: notify (ready), the post-confirmation trigger (welcome), fulfilment's two (receipt),
 * and the team invitations' two (send and resend, docs/teams.md "Invitations").
 */
const MAILERS = [
  'GenerationNotifyCustomer',
  'CognitoPostConfirmation',
  'WebhooksStripe',
  'HttpGetCheckoutSession',
  'HttpSendInvitations',
  'HttpResendInvitation',
];

const sendsMail = (template: ReturnType<typeof testStack>['template'], logicalId: string) =>
  roleStatements(template, logicalId).filter((s) => s.Action.some((a) => a.startsWith('ses:')));

describe('SES permission', () => {
  it('lets only the mailing functions send, as the configured identity and from the configured address', () => {
    const { template } = testStack({
      mailFrom: 'headshots@example.com',
      mailIdentity: 'example.com',
      mailConfigurationSet: 'headshots-mail',
    });
    const functions = appFunctions(template);
    for (const id of MAILERS) {
      const mailer = functions.get(id)!;
      expect(mailer, id).toBeDefined();
      const statements = sendsMail(template, mailer.logicalId);
      expect(statements, id).toHaveLength(1);
      const [statement] = statements;
      expect(statement!.Action).toEqual(['ses:SendEmail']);
      const resources = JSON.stringify(statement!.Resource);
      expect(statement!.Resource).toHaveLength(2);
      expect(resources).toContain(':identity/example.com');
      expect(resources).toContain(':configuration-set/headshots-mail');
      expect(resources).not.toContain('*');
      expect(statement!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'headshots@example.com' } });
      expect(mailer.resource.Properties?.Environment, id).toMatchObject({
        Variables: { MAIL_FROM: 'headshots@example.com', MAIL_CONFIGURATION_SET: 'headshots-mail' },
      });
    }
    for (const [id, fn] of functions) {
      if (!MAILERS.includes(id)) expect(sendsMail(template, fn.logicalId), id).toEqual([]);
    }
  });

  it('grants nothing, and sets no sender, without mailFrom', () => {
    const { template } = testStack();
    for (const id of MAILERS) {
      const mailer = appFunctions(template).get(id)!;
      expect(sendsMail(template, mailer.logicalId), id).toEqual([]);
      expect(JSON.stringify(mailer.resource.Properties?.Environment)).not.toContain('MAIL_FROM');
    }
  });
});

/*
 * Cognito's own mail (codes, password resets) through SES: `EmailConfiguration.SourceArn` must name the identity SES
 * verified — the domain when the domain is verified — or Cognito refuses the user pool ("Email address is not
 * verified", aws/aws-cdk#18964, #19762).
 */
describe('Cognito’s SES identity', () => {
  const sourceArn = (template: ReturnType<typeof testStack>['template']) => {
    const [pool] = Object.values(template.findResources('AWS::Cognito::UserPool'));
    const config = (pool!.Properties as { EmailConfiguration: Record<string, unknown> }).EmailConfiguration;
    expect(config).toMatchObject({
      EmailSendingAccount: 'DEVELOPER',
      From: 'Headshot Studio <headshots@example.com>',
    });
    const parts = (config.SourceArn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    return parts.filter((p) => typeof p === 'string').join('');
  };

  it('names the domain identity when the domain is verified (the default), and the address when it is', () => {
    const domain = testStack({ stage: 'prod', mailFrom: 'headshots@example.com' }, 'CognitoDomain-prod');
    expect(sourceArn(domain.template)).toMatch(/:identity\/example\.com$/);
    const address = testStack(
      { stage: 'prod', mailFrom: 'headshots@example.com', mailIdentity: 'headshots@example.com' },
      'CognitoAddress-prod',
    );
    expect(sourceArn(address.template)).toMatch(/:identity\/headshots@example\.com$/);
    // The ready e-mail's grant names the same identity.
    const notify = appFunctions(address.template).get('GenerationNotifyCustomer')!;
    expect(JSON.stringify(sendsMail(address.template, notify.logicalId))).toContain(
      ':identity/headshots@example.com',
    );
  });
});
