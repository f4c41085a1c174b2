import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as ses from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';
import { stackOutput } from './naming';

/**
 * Creates the stage's SES configuration set `HeadshotStudio-<stage>` with a CloudWatch event destination, for every
 * mail the stage sends (the ready e-mail and Cognito's codes): SES publishes Send, Delivery, Bounce, Complaint and
 * Reject counts in AWS/SES with the dimension `ses:configuration-set` = its name (Amazon SES Developer Guide, "Set up
 * a CloudWatch event destination for event publishing":
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-add-event-destination-cloudwatch.html). The dashboard
 * charts the stage's rates from them; the account's reputation alarms are in ./operations.ts.
 *
 * @param sender any sender of the stage (`mailFrom` or Cognito's): without one no mail is sent, and no set is made
 * @returns its name (a literal, so what reads it does not depend on it: the user pool must be made to, see
 *   infrastructure/stack.ts) and the set, or undefined without a sender
 */
export function mailEvents(
  scope: Construct,
  stage: string,
  sender: string | undefined,
): { name: string; set: ses.ConfigurationSet } | undefined {
  if (!sender) return undefined;
  const name = `HeadshotStudio-${stage}`;
  const set = new ses.ConfigurationSet(scope, 'MailConfigurationSet', { configurationSetName: name });
  set.addEventDestination('CloudWatch', {
    destination: ses.EventDestination.cloudWatchDimensions([
      { name: MAIL_EVENT_DIMENSION, source: ses.CloudWatchDimensionSource.MESSAGE_TAG, defaultValue: name },
    ]),
    events: [
      ses.EmailSendingEvent.SEND,
      ses.EmailSendingEvent.DELIVERY,
      ses.EmailSendingEvent.BOUNCE,
      ses.EmailSendingEvent.COMPLAINT,
      ses.EmailSendingEvent.REJECT,
    ],
  });
  stackOutput(scope, 'MailConfigurationSetName', name);
  return { name, set };
}

/** The CloudWatch dimension of the configuration set's events (SES's auto-tag, one value: the set's name). */
export const MAIL_EVENT_DIMENSION = 'ses:configuration-set';

/**
 * Lets `fn` send e-mail through SES v2 as exactly one identity (and its configuration set), and only from the
 * configured address (`ses:FromAddress`): SendEmail needs the identity and, when one is named, the configuration set.
 */
export function grantSendEmail(
  fn: lambda.IFunction,
  options: { identityArn: string; configurationSetArn?: string; from: string },
): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [options.identityArn, ...(options.configurationSetArn ? [options.configurationSetArn] : [])],
      conditions: { StringEquals: { 'ses:FromAddress': options.from } },
    }),
  );
}
