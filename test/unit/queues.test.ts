import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  queues,
  queueUrlVariable,
  validateQueues,
  type QueueDefinition,
} from '../../functions/queue-catalogue';
import { catalogue } from '../../functions/catalogue';
import { failedMessageIds } from '../../infrastructure/local/stand-ins/lambda/sqs-events';

const functions = new Map([
  ['dispatcher', { timeoutSeconds: 30 }],
  ['producer', { timeoutSeconds: 10 }],
]);
const valid: QueueDefinition = {
  name: 'admission-wakeup',
  consumer: 'dispatcher',
  producers: ['producer'],
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  maxConcurrency: 2,
  visibilityTimeoutSeconds: 180,
  maxReceiveCount: 5,
  reportBatchItemFailures: true,
};
const check = (changes: Partial<QueueDefinition>) => () =>
  validateQueues([{ ...valid, ...changes }], functions);

describe('the queue catalogue', () => {
  it('is valid against the function catalogue', () => {
    expect(() =>
      validateQueues(queues, new Map(catalogue.map((f) => [f.name, { timeoutSeconds: f.timeoutSeconds }]))),
    ).not.toThrow();
  });

  it('names each URL variable after its queue', () => {
    expect(queueUrlVariable('admission-wakeup')).toBe('ADMISSION_WAKEUP_QUEUE_URL');
  });

  it('refuses what SQS and Lambda refuse, and what the function catalogue lacks', () => {
    expect(check({})).not.toThrow();
    expect(check({ name: 'no spaces' })).toThrow(/name/);
    expect(check({ consumer: 'nobody' })).toThrow(/no function "nobody"/);
    expect(check({ producers: ['ghost'] })).toThrow(/no producer function "ghost"/);
    expect(check({ batchSize: 0 })).toThrow(/batchSize/);
    expect(check({ batchSize: 11 })).toThrow(/above 10 needs maxBatchingWindowSeconds/);
    expect(check({ batchSize: 11, maxBatchingWindowSeconds: 1 })).not.toThrow();
    expect(check({ maxBatchingWindowSeconds: 301 })).toThrow(/maxBatchingWindowSeconds/);
    expect(check({ maxConcurrency: 1 })).toThrow(/maxConcurrency must be 2-1000/);
    expect(check({ maxReceiveCount: 0 })).toThrow(/maxReceiveCount/);
    expect(check({ visibilityTimeoutSeconds: 29 })).toThrow(/less than dispatcher's timeout 30 s/);
    expect(() => validateQueues([valid, valid], functions)).toThrow(/declared twice/);
  });
});

describe("Lambda's partial batch response", () => {
  const event = { Records: [{ messageId: 'a' }, { messageId: 'b' }] } as SQSEvent;

  it('treats no response, null, {} and empty or null batchItemFailures as complete success', () => {
    for (const result of [undefined, null, {}, { batchItemFailures: [] }, { batchItemFailures: null }]) {
      expect(failedMessageIds(event, result)).toEqual([]);
    }
  });

  it('returns the reported messages', () => {
    expect(failedMessageIds(event, { batchItemFailures: [{ itemIdentifier: 'b' }] })).toEqual(['b']);
  });

  it('fails the whole batch for an invalid response or item identifier', () => {
    for (const result of [
      'nope',
      [],
      { batchItemFailures: 'b' },
      { batchItemFailures: [{ itemIdentifier: '' }] },
      { batchItemFailures: [{ itemIdentifier: null }] },
      { batchItemFailures: [{ id: 'b' }] },
      { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] },
    ]) {
      expect(failedMessageIds(event, result)).toEqual(['a', 'b']);
    }
  });
});
