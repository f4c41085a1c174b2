import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { callerHash } from '../common/caller-hash';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';
import { createUser } from '../use-cases/create-user';

/**
 * Cognito post-confirmation trigger: creates the user item with 6 free credits, exactly once (the same idempotent
 * call `GET /api/me` makes), and sends the welcome e-mail once (use-cases/create-user.ts). Returns the event
 * unchanged, as Cognito requires. Only sign-up confirmations create users; a forgotten-password confirmation changes
 * nothing and sends nothing.
 */
async function postConfirmation(event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> {
  if (event.triggerSource === 'PostConfirmation_ConfirmSignUp') {
    const { sub, email } = event.request.userAttributes;
    if (sub && email) {
      await createUser(sub, email);
      logger.info('User created on confirmation', { caller: callerHash(sub) });
    }
  }
  return event;
}

export const handler = withLambdaContext(postConfirmation);
