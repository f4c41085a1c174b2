import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { stackOutput } from './naming';
import { Construct } from 'constructs';

/** The table's TTL attribute (epoch seconds); the local bootstrap turns on the same one. */
export const TTL_ATTRIBUTE = 'expiresAt';

/** Properties of {@link Data}. */
export interface DataProps {
  stage: string;
  /** Production (production.ts `productionOf`): retained, protected resources. */
  production: boolean;
}

/**
 * The single DynamoDB table (docs/architecture.md §2): string keys `PK`/`SK`, on-demand, point-in-time recovery, AWS-owned
 * encryption, TTL on `expiresAt`. In `prod` it is protected from deletion and retained when the stack goes away (and
 * when a failed first create rolls back: it has no fixed name, so the retry is not blocked).
 */
export class Data extends Construct {
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const prod = props.production;
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: 'PK', type: AttributeType.STRING },
      sortKey: { name: 'SK', type: AttributeType.STRING },
      billing: Billing.onDemand(),
      // Epoch seconds after which DynamoDB deletes an item by itself (quota windows, other short-lived items).
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Deletion protection makes DynamoDB refuse DeleteTable, so a rollback of a failed first create could not delete
      // the table (RETAIN_ON_UPDATE_OR_DELETE would end in ROLLBACK_FAILED): prod retains it instead. It has no fixed
      // name, so a retry creates a new table beside the empty one left behind (docs/deploy.md, "Teardown").
      deletionProtection: prod,
      removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    stackOutput(this, 'TableName', this.table.tableName);
  }
}
