import { describe, expect, it } from 'vitest';
import { appFunctions, roleStatements, testStack } from './helpers';

/*
 * The "headshots ready" e-mail in the cloud: SES v2 SendEmail, allowed only to the notify function, only for the
 * configured identity (and configuration set), only from the configured address.
 */

const sendsMail = (template: ReturnType<typeof testStack>['template'], logicalId: string) =>
  roleStatements(template, logicalId).filter((s) => s.Action.some((a) => a.startsWith('ses:')));

describe('SES permission', () => {
  it('lets only the notify function send, as the configured identity and from the configured address', () => {
    const { template } = testStack({
      mailFrom: 'headshots@example.com',
      mailIdentity: 'example.com',
      mailConfigurationSet: 'headshots-mail',
    });
    const functions = appFunctions(template);
    const notify = functions.get('GenerationNotifyCustomer')!;
    expect(notify).toBeDefined();
    const statements = sendsMail(template, notify.logicalId);
    expect(statements).toHaveLength(1);
    const [statement] = statements;
    expect(statement!.Action).toEqual(['ses:SendEmail']);
    const resources = JSON.stringify(statement!.Resource);
    expect(statement!.Resource).toHaveLength(2);
    expect(resources).toContain(':identity/example.com');
    expect(resources).toContain(':configuration-set/headshots-mail');
    expect(resources).not.toContain('*');
    expect(statement!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'headshots@example.com' } });
    expect(notify.resource.Properties?.Environment).toMatchObject({
      Variables: { MAIL_FROM: 'headshots@example.com', MAIL_CONFIGURATION_SET: 'headshots-mail' },
    });
    for (const [id, fn] of functions) {
      if (id !== 'GenerationNotifyCustomer') expect(sendsMail(template, fn.logicalId), id).toEqual([]);
    }
  });

  it('grants nothing, and sets no sender, without mailFrom', () => {
    const { template } = testStack();
    const notify = appFunctions(template).get('GenerationNotifyCustomer')!;
    expect(sendsMail(template, notify.logicalId)).toEqual([]);
    expect(JSON.stringify(notify.resource.Properties?.Environment)).not.toContain('MAIL_FROM');
  });
});
