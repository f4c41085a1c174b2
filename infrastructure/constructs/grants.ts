import type { CognitoAccess, ObjectAccess, StateMachineAccess, TableAccess } from '../../functions/catalogue';

/**
 * IAM actions of each declared table operation (`functions/catalogue.ts`, `TableAccess`). Transactions need the
 * action of each item they hold (Put/Update/ConditionCheck/Delete); BatchWriteItem is only ever used to delete.
 * Never Scan: the single-table design reads by key and Query (docs/architecture.md §2).
 */
export const TABLE_ACTIONS: Record<TableAccess, readonly string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  write: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
  delete: ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
};

/** IAM action of each object operation; `list` is `s3:ListBucket` on the bucket, limited to the prefix. */
export const OBJECT_ACTIONS: Record<Exclude<ObjectAccess, 'list'>, string> = {
  read: 's3:GetObject',
  write: 's3:PutObject',
  delete: 's3:DeleteObject',
};

/**
 * IAM action of each state machine call: StartExecution on the state machine, DescribeExecution on its executions,
 * the task-token answers on the state machine.
 */
export const STATE_MACHINE_ACTIONS: Record<StateMachineAccess, string> = {
  start: 'states:StartExecution',
  describe: 'states:DescribeExecution',
  // One of three: SendTaskSuccess, SendTaskFailure and SendTaskHeartbeat (CDK's grantTaskResponse grants all three).
  callback: 'states:SendTaskSuccess',
};

/** The table actions of a declaration, in a stable order; empty for none. */
export function tableActions(access: readonly TableAccess[] = []): string[] {
  return (['read', 'write', 'delete'] as const)
    .filter((op) => access.includes(op))
    .flatMap((op) => TABLE_ACTIONS[op]);
}

/** The object actions (not `list`) of a declaration, in a stable order. */
export function objectActions(access: readonly ObjectAccess[] = []): string[] {
  return (['read', 'write', 'delete'] as const)
    .filter((op) => access.includes(op))
    .map((op) => OBJECT_ACTIONS[op]);
}

/** `cognito-idp:<Action>` of each declared user pool call. */
export function cognitoActions(access: readonly CognitoAccess[] = []): string[] {
  return access.map((action) => `cognito-idp:${action}`);
}
