import {
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { cognitoSettings } from '../config/cognito';
import { runtimeSettings } from '../config/runtime';
import { onConfigReset } from '../config/settings';
import { awsClient } from './support/aws';

let client: CognitoIdentityProviderClient | undefined;
onConfigReset(() => (client = undefined));

/**
 * Deletes a user from the app's Cognito user pool (`AdminDeleteUser`; the emulator's endpoint comes from
 * `AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER` locally). Deleting a user that is already gone is not an error, so
 * an interrupted account deletion can run again. Tokens already issued stay valid until they expire; the API refuses
 * them through the user item's tombstone (use-cases/delete-account.ts).
 *
 * @param username the user's Cognito username (the ID token's `cognito:username`; an e-mail alias also works)
 * @throws {Error} when COGNITO_USER_POOL_ID is not configured, or on any other Cognito error
 */
export async function deleteUserPoolUser(username: string): Promise<void> {
  const { COGNITO_USER_POOL_ID } = cognitoSettings();
  const { AWS_REGION } = runtimeSettings();
  if (!COGNITO_USER_POOL_ID) throw new Error('COGNITO_USER_POOL_ID is not configured');
  client ??= awsClient(new CognitoIdentityProviderClient({ region: AWS_REGION }));
  try {
    await client.send(new AdminDeleteUserCommand({ UserPoolId: COGNITO_USER_POOL_ID, Username: username }));
  } catch (error) {
    if ((error as Error).name !== 'UserNotFoundException') throw error;
  }
}
