import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { documentClient } from '../../functions/adapters/support/aws';
import { generationSk, userPk } from '../../functions/adapters/support/keys';
import { storageSettings } from '../../functions/config/storage';
import type { GenerationPayer } from '../../functions/domain/team-seats';
import { seedHeadshots, type Seeded } from './gallery';

/**
 * Team headshots on the shared stack without running a generation (docs/testing.md: seed what the test is not
 * about): a finished generation item whose `payer` names the team (docs/teams.md "Money"), and its headshots as
 * test/helpers/gallery.ts `seedHeadshots` writes them.
 *
 * @param teamId the paying team; `undefined`: the person paid (a personal headshot)
 * @param options.withImages how many of them (newest first) get their JPEG and thumbnail in the results bucket
 * @returns the headshots, newest first
 */
export async function seedTeamHeadshots(
  sub: string,
  teamId: string | undefined,
  count: number,
  options: { withImages?: number } = {},
): Promise<Seeded> {
  const generationId = ulid();
  const now = new Date().toISOString();
  const payer: GenerationPayer = teamId === undefined ? 'user' : { team: teamId };
  await documentClient().send(
    new PutCommand({
      TableName: storageSettings().TABLE_NAME,
      Item: {
        PK: userPk(sub),
        SK: generationSk(generationId),
        type: 'generation',
        id: generationId,
        userId: sub,
        status: 'succeeded',
        stage: 'done',
        progress: 100,
        style: 'professional',
        background: 'office',
        payer,
        createdAt: now,
        updatedAt: now,
      },
    }),
  );
  return seedHeadshots(sub, count, {
    generationId,
    withImages: options.withImages ?? 0,
    ...(teamId === undefined ? {} : { teamId }),
  });
}
