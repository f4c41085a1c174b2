import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { headshotExpiry } from '../domain/retention';
import { documentClient } from './support/aws';
import { generationSk, headshotSk, RETENTION_PK, sweepSk, userPk } from './support/keys';
import { queryPages, updateIf } from './support/query';
import { deleteMarkerItem, dueMarkerItems } from './support/due-markers';

/**
 * Retention of a generation's headshots and reference descriptor (docs/decisions/011-retention.md; the periods in
 * domain/retention.ts). When the sweeper retires a generation's sweep marker (no execution can run it any more) it
 * deletes the generation's reference descriptor and puts a retention marker — `RETENTION#headshots` /
 * `<expiry ISO>#<sub>#<generationId>` — which it reads again, with one Query in expiry order (no Scan), once the
 * headshots' retention period has ended. This module holds those items.
 */

const table = () => storageSettings().TABLE_NAME;
/** Days a retention marker outlives its expiry if the sweeper never reached it (DynamoDB's TTL drops it then). */
const MARKER_TTL_DAYS = 7;

/** A generation whose headshots are to be deleted at `expiry`. */
export interface RetentionMarker {
  PK: string;
  SK: string;
  userId: string;
  generationId: string;
  expiry: string;
}

/**
 * Records that the headshots of `sub`'s generation `generationId`, created at `createdAt` (ISO 8601), are deleted at
 * the end of their retention period. Idempotent (the same key and values on every call).
 */
export async function putRetentionMarker(
  sub: string,
  generationId: string,
  createdAt: string,
): Promise<void> {
  const expiry = headshotExpiry(createdAt);
  await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        PK: RETENTION_PK,
        SK: sweepSk(expiry, sub, generationId),
        type: 'retentionMarker',
        userId: sub,
        generationId,
        expiry,
        expiresAt: Math.floor(Date.parse(expiry) / 1000) + MARKER_TTL_DAYS * 86_400,
      },
    }),
  );
}

/** The retention markers whose expiry is before `cutoff` (ISO 8601), oldest first; stop iterating to read no more. */
export async function* dueRetentionMarkers(cutoff: string): AsyncGenerator<RetentionMarker> {
  for await (const { due, ...marker } of dueMarkerItems(RETENTION_PK, cutoff, 'expiry'))
    yield { ...marker, expiry: due };
}

/** Removes a retention marker once its generation's headshots are deleted. */
export async function deleteRetentionMarker(marker: Pick<RetentionMarker, 'PK' | 'SK'>): Promise<void> {
  await deleteMarkerItem(marker);
}

/**
 * Deletes the reference descriptor (biometric data: the mean face descriptor of the reference photos) from `sub`'s
 * generation `generationId`, if the generation still exists. Call only once no execution can run it.
 *
 * @returns false when there is no such generation
 */
export async function deleteReferenceDescriptor(sub: string, generationId: string): Promise<boolean> {
  return updateIf({
    Key: { PK: userPk(sub), SK: generationSk(generationId) },
    UpdateExpression: 'REMOVE referenceDescriptor, referenceDescriptorModel',
    ConditionExpression: 'attribute_exists(PK)',
  });
}

/** The ids of `sub`'s headshots made by generation `generationId` (one Query of the user's headshots, filtered). */
export async function headshotIdsOfGeneration(sub: string, generationId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'generationId = :generationId',
    ExpressionAttributeValues: {
      ':pk': userPk(sub),
      ':prefix': headshotSk(''),
      ':generationId': generationId,
    },
    ProjectionExpression: 'id',
    ConsistentRead: true,
  })) {
    for (const item of page.Items ?? []) ids.push(String(item.id));
  }
  return ids;
}
