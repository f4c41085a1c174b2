import { readFileSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import {
  definitionTimeoutSeconds,
  substitutionKeys,
  Workflow,
  type WorkflowProps,
} from '../../infrastructure/constructs/workflow';
import { FIXTURES, getAttTarget } from './helpers';
import { testTempDir } from '../helpers/temp-dir';

const ASL = join(FIXTURES, 'echo.asl.json');

function build(overrides: Partial<WorkflowProps> = {}) {
  const stack = new Stack(new App(), 'WorkflowTest');
  const fn = (id: string) =>
    new lambda.Function(stack, id, {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async (e) => e;'),
    });
  const functions = new Map<string, lambda.IFunction>([
    ['fixture-echo', fn('Echo')],
    ['fixture-work', fn('Work')],
    ['fixture-unused', fn('Unused')],
  ]);
  const workflow = new Workflow(stack, 'Workflow', {
    definitionFile: ASL,
    functions,
    values: { TableName: 'the-table', MaxConcurrency: '4', UploadsBucket: 'u', ResultsBucket: 'r' },
    logRetention: logs.RetentionDays.ONE_WEEK,
    ...overrides,
  });
  return { stack, workflow, template: Template.fromStack(stack) };
}

describe('Workflow construct (fixture ASL)', () => {
  it('reads the definition from the file and substitutes exactly the keys it uses', () => {
    const { template } = build();
    const machine = Object.values(template.findResources('AWS::StepFunctions::StateMachine'))[0]!;
    const props = machine.Properties as Record<string, unknown>;
    expect(props.DefinitionS3Location).toBeDefined(); // DefinitionBody.fromFile: an S3 asset, not an inline string
    expect(props.DefinitionSubstitutions).toEqual({
      FixtureEchoFunctionArn: { 'Fn::GetAtt': [expect.stringMatching(/^Echo/), 'Arn'] },
      TableName: 'the-table',
      MaxConcurrency: '4',
      FixtureWorkFunctionArn: { 'Fn::GetAtt': [expect.stringMatching(/^Work/), 'Arn'] },
    });
  });

  it('lets the state machine invoke exactly the referenced functions', () => {
    const { template, workflow } = build();
    expect(workflow.invokedFunctions).toEqual(['fixture-echo', 'fixture-work']);
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (p) =>
        (p.Properties as { PolicyDocument: { Statement: Record<string, unknown>[] } }).PolicyDocument
          .Statement,
    );
    const invoke = statements.filter((s) => [s.Action].flat().includes('lambda:InvokeFunction'));
    expect(invoke).toHaveLength(1);
    expect(([invoke[0]!.Resource].flat() as unknown[]).map(getAttTarget).sort()).toEqual([
      expect.stringMatching(/^Echo/),
      expect.stringMatching(/^Work/),
    ]);
  });

  it('logs ALL with execution data to a vended-logs group and enables X-Ray', () => {
    const { template } = build();
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: Match.stringLikeRegexp('^/aws/vendedlogs/states/'),
      RetentionInDays: 7,
    });
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false, Destinations: Match.anyValue() },
      TracingConfiguration: { Enabled: true },
    });
  });

  it('fails synth for a ${Key} nothing provides, naming it', () => {
    expect(() => build({ functions: new Map() })).toThrow(/\$\{FixtureEchoFunctionArn\}.*nothing provides/);
  });

  it('warns when the definition has no top-level timeout, or one over 15 minutes', () => {
    expect(
      Annotations.fromStack(build().stack).findWarning('*', Match.stringLikeRegexp('TimeoutSeconds')),
    ).toEqual([]);
    const dir = testTempDir('asl-');
    const noTimeout = join(dir, 'no-timeout.asl.json');
    const definition = JSON.parse(readFileSync(ASL, 'utf8')) as Record<string, unknown>;
    delete definition.TimeoutSeconds;
    writeFileSync(noTimeout, JSON.stringify(definition));
    const { stack } = build({ definitionFile: noTimeout });
    expect(
      Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('TimeoutSeconds')),
    ).toHaveLength(1);
  });

  it('parses keys and timeouts from definition text, unquoted placeholders included', () => {
    const text =
      '{ "TimeoutSeconds": 900, "States": { "A": { "MaxConcurrency": ${MaxConcurrency}, "X": "${AFunctionArn}" } } }';
    expect(substitutionKeys(text)).toEqual(['MaxConcurrency', 'AFunctionArn']);
    expect(definitionTimeoutSeconds(text)).toBe(900);
    expect(definitionTimeoutSeconds('{ "States": {} }')).toBeUndefined();
  });
});
