import type { PreSignUpTriggerEvent } from 'aws-lambda';

/**
 * LOCAL ONLY — never deployed. cognito-local prints confirmation codes to its log instead of e-mailing them, so the
 * local stack registers this pre-sign-up trigger to confirm the account and verify its e-mail at once: a new local
 * user is signed in right after sign-up. In the cloud, Cognito e-mails a code and the SPA asks for it.
 */
export const handler = async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
  event.response.autoConfirmUser = true;
  if (event.request.userAttributes.email) event.response.autoVerifyEmail = true;
  return event;
};
