import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CALL_PROVIDER_MEMORY_MB, catalogueEntry, VISION_MEMORY_MB } from '../../functions/catalogue';
import { FINISH_LAMBDA_SECONDS, FINISH_TASK_SECONDS } from '../../functions/domain/provider-timeouts';
import { callProviderInput } from '../../functions/workflow/inputs/call-provider';
import { finishHeadshotInput } from '../../functions/workflow/inputs/finish-headshot';
import { allStates, type AslMachine } from '../../infrastructure/local/stand-ins/step-functions/asl';
import { GENERATION_ASL } from '../../infrastructure/stack';
import { appFunctions, devStack, roleStatements, testStack } from './helpers';

/*
 * "Pay only for work" (docs/architecture.md §4): the provider call runs in a small function that only waits and
 * writes the provider's bytes under the results bucket's work/ prefix; the 2 GB function reads them and does the
 * likeness check, the encodes and the save. Each holds only what its half needs, no customer-facing function can read
 * work/, and anything left there expires in a day.
 */

type Statement = ReturnType<typeof roleStatements>[number];

const { template } = devStack();
const fns = appFunctions(template);
const statementsOf = (id: string) => roleStatements(template, fns.get(id)!.logicalId);

/** The object actions a role holds per bucket prefix (`uploads`, `results`, `work`), from its resources' ARNs. */
function objectGrants(statements: Statement[]): Record<string, string[]> {
  const grants: Record<string, string[]> = {};
  for (const statement of statements) {
    for (const resource of statement.Resource) {
      const prefix = /\/(\w+)\/\*"\]\]\}$/.exec(JSON.stringify(resource))?.[1];
      if (!prefix) continue;
      const actions = statement.Action.filter((a) => /^s3:\w+Object$/.test(a));
      grants[prefix] = [...new Set([...(grants[prefix] ?? []), ...actions])].sort();
    }
  }
  return grants;
}

/** The secrets a role may read (their logical ids). */
const secretsOf = (statements: Statement[]) =>
  statements
    .filter((s) => s.Action.includes('secretsmanager:GetSecretValue'))
    .flatMap((s) => s.Resource.map((r) => (r as { Ref: string }).Ref));

const definition = JSON.parse(
  readFileSync(GENERATION_ASL, 'utf8').replace(/(?<!")\$\{[^}]+\}(?!")/g, '0'),
) as AslMachine;
type Task = {
  Type: string;
  Next?: string;
  Parameters?: { FunctionName?: string; Payload?: Record<string, string> };
  Catch?: { ErrorEquals: string[]; ResultPath?: string; Next: string }[];
  ResultPath?: string;
  Choices?: { Variable: string; StringEquals?: string; Next: string }[];
  Default?: string;
};
const states = new Map([...allStates(definition)].map(([name, state]) => [name, state as Task]));
const payloadKeys = (name: string) =>
  Object.keys(states.get(name)!.Parameters!.Payload!)
    .map((k) => k.replace(/\.\$$/, ''))
    .sort();

describe('the provider call and the finishing, split', () => {
  it("grants the call function the references, an edit's source from results/, work/ and partial/ writes and the OpenAI key", () => {
    const call = statementsOf('GenerationCallProvider');
    expect(objectGrants(call)).toEqual({
      uploads: ['s3:GetObject'],
      results: ['s3:GetObject'],
      work: ['s3:PutObject'],
      partial: ['s3:DeleteObject', 's3:PutObject'],
    });
    expect(secretsOf(call)).toEqual([expect.stringMatching(/OpenAi/i)]);
  });

  it('grants the finish function work/ reads and deletes and results/ writes, and no OpenAI key', () => {
    const finish = statementsOf('GenerationFinishHeadshot');
    expect(objectGrants(finish)).toEqual({
      uploads: ['s3:GetObject'],
      results: ['s3:DeleteObject', 's3:PutObject'],
      work: ['s3:DeleteObject', 's3:GetObject'],
      partial: ['s3:DeleteObject'],
    });
    expect(secretsOf(finish)).toEqual([]);
  });

  it('lets no other function touch work/: no presigned URL a customer gets can reach it', () => {
    const holders = [...fns.keys()].filter((id) => objectGrants(statementsOf(id)).work);
    expect(holders.sort()).toEqual(['GenerationCallProvider', 'GenerationFinishHeadshot']);
  });

  it("lets only the generation view read partial/ (to presign an edit's preview), and expires it after 1 day", () => {
    const readers = [...fns.keys()].filter((id) =>
      objectGrants(statementsOf(id)).partial?.includes('s3:GetObject'),
    );
    expect(readers).toEqual(['HttpGetGeneration']);
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'partial/', ExpirationInDays: 1, Status: 'Enabled' }),
        ]),
      },
    });
  });

  it('expires work/ after 1 day in the results bucket', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: { 'Fn::Join': ['-', Match.arrayWith([Match.stringLikeRegexp('-results$')])] },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'work/', ExpirationInDays: 1, Status: 'Enabled' }),
        ]),
      },
    });
  });

  it('sizes the call function for waiting and the finish function for the models, with its own timeouts', () => {
    const props = (id: string) => fns.get(id)!.resource.Properties as { MemorySize: number; Timeout: number };
    expect(props('GenerationCallProvider').MemorySize).toBe(CALL_PROVIDER_MEMORY_MB);
    expect(CALL_PROVIDER_MEMORY_MB).toBeLessThanOrEqual(512);
    expect(props('GenerationFinishHeadshot')).toMatchObject({
      MemorySize: VISION_MEMORY_MB,
      Timeout: FINISH_LAMBDA_SECONDS,
    });
    const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    const values = machine!.Properties!.DefinitionSubstitutions as Record<string, string>;
    expect(Number(values.FinishHeadshotTimeoutSeconds)).toBe(FINISH_TASK_SECONDS);
    expect(FINISH_TASK_SECONDS).toBeGreaterThan(FINISH_LAMBDA_SECONDS);
  });

  it('gives the call function the vision memory when the offline provider (which composites) is configured', () => {
    const local = testStack({ stage: 'dev', imageProvider: 'local' }, 'OfflineProvider');
    const props = appFunctions(local.template).get('GenerationCallProvider')!.resource.Properties as {
      MemorySize: number;
    };
    expect(props.MemorySize).toBe(VISION_MEMORY_MB);
    expect(catalogueEntry('generation-call-provider').memorySize).toBe(CALL_PROVIDER_MEMORY_MB);
  });

  it('passes each task exactly what its input schema takes: no object key, the prompt only to the call', () => {
    expect(payloadKeys('CallProvider')).toEqual(Object.keys(callProviderInput.shape).sort());
    expect(payloadKeys('FinishHeadshot')).toEqual(Object.keys(finishHeadshotInput.shape).sort());
    expect(payloadKeys('FinishHeadshot')).not.toContain('prompt');
  });

  it('finishes only a generated image; everything else, and every failure, goes to ReleaseProviderSlot at $.call', () => {
    const call = states.get('CallProvider')!;
    expect(call.ResultPath).toBe('$.call');
    expect(call.Next).toBe('ProviderAnswered');
    expect(states.get('ProviderAnswered')).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.call.outcome', StringEquals: 'generated', Next: 'FinishHeadshot' }],
      Default: 'ReleaseProviderSlot',
    });
    const finish = states.get('FinishHeadshot')!;
    expect(finish).toMatchObject({ ResultPath: '$.call', Next: 'ReleaseProviderSlot' });
    for (const task of [call, finish]) {
      expect(task.Catch).toEqual([
        { ErrorEquals: ['States.ALL'], ResultPath: '$.call', Next: 'ReleaseProviderSlot' },
      ]);
    }
  });
});
