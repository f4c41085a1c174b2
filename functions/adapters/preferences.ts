import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { UserNotFoundError } from '../domain/credits';
import { documentClient } from './support/aws';
import { PROFILE_SK, userPk } from './support/keys';

/**
 * Sets the user's "E-mail me when my headshots are ready" preference on their user item (docs/architecture.md,
 * "Data model").
 *
 * @throws {UserNotFoundError} when the user item does not exist
 */
export async function setEmailWhenReady(sub: string, emailWhenReady: boolean): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: storageSettings().TABLE_NAME,
        Key: { PK: userPk(sub), SK: PROFILE_SK },
        UpdateExpression: 'SET emailWhenReady = :value, updatedAt = :now',
        ConditionExpression: 'attribute_exists(SK)',
        ExpressionAttributeValues: { ':value': emailWhenReady, ':now': new Date().toISOString() },
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw new UserNotFoundError();
    throw error;
  }
}
