import { writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { moduleGraph } from '../../constructs/module-graph';
import { HeadshotStudioStack } from '../../stack';
import { REPO_ROOT } from '../support/paths';
import {
  SYNTH_CONFIGURATION_SET,
  SYNTH_MAIL_FROM,
  type LocalReference,
  type SynthesizedRoles,
  INDEX_FILE,
  rolesFileName,
  rolesHash,
} from './synthesized';

/*
 * The functions' roles as the cloud gets them: the dev stage's stack synthesized with stub function code (no
 * bundling), its template read for each function's identity policies and the buckets' and queues' own policies,
 * with every reference to a resource the local stack has (the table, the two data buckets, the state machine, the
 * queues, the user pool) named by its logical id and kind, to be resolved to the local names when the stack runs
 * (roles.ts). Run as a child process (`node --import tsx synth-roles.ts <cache dir>`): CDK stays out of the stack's
 * process, and the synth runs beside the emulators' start.
 */

type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };

function logicalIdOf(stack: Stack, token: string): string {
  const resolved = stack.resolve(token) as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = resolved.Ref ?? resolved['Fn::GetAtt']?.[0];
  if (!id) throw new Error(`Not a reference to a resource: ${JSON.stringify(resolved)}`);
  return id;
}

function child<T>(scope: IConstruct, id: string): T {
  return scope.node.findChild(id) as unknown as T;
}

/** The references the local stack resolves, by logical id. */
function localReferences(stack: HeadshotStudioStack): Record<string, LocalReference> {
  const references: Record<string, LocalReference> = {};
  const { table } = child<{ table: { tableArn: string } }>(stack, 'Data');
  references[logicalIdOf(stack, table.tableArn)] = { kind: 'table' };
  const storage = child<Record<'uploads' | 'results', { bucketName: string }>>(stack, 'Storage');
  for (const bucket of ['uploads', 'results'] as const)
    references[logicalIdOf(stack, storage[bucket].bucketName)] = { kind: 'bucket', bucket };
  if (stack.workflow)
    references[logicalIdOf(stack, stack.workflow.stateMachine.stateMachineArn)] = { kind: 'stateMachine' };
  for (const [name, deployed] of stack.queues.deployed) {
    references[logicalIdOf(stack, deployed.queue.queueArn)] = { kind: 'queue', name };
    references[logicalIdOf(stack, deployed.deadLetterQueue.queueArn)] = {
      kind: 'queue',
      name: `${name}-dlq`,
    };
  }
  const { userPool } = child<{ userPool: { userPoolId: string } }>(stack, 'Auth');
  references[logicalIdOf(stack, userPool.userPoolId)] = { kind: 'userPool' };
  return references;
}

const refs = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
const refId = (value: unknown) => (value as { Ref?: string }).Ref;

/** Synthesizes the dev stage (about 4 s: validation off, stub code) and reads its roles and resource policies. */
export function synthesizeRoles(): SynthesizedRoles {
  const app = new App({ builtinCloudFormationValidation: false } as ConstructorParameters<typeof App>[0]);
  const stack = new HeadshotStudioStack(app, 'Local', {
    stage: 'dev',
    stubFunctionCode: true,
    siteDir: '/nonexistent',
    nativeLayerDir: '/nonexistent',
    mailFrom: SYNTH_MAIL_FROM,
    mailConfigurationSet: SYNTH_CONFIGURATION_SET,
  });
  const template = app.synth().getStackByName(stack.stackName).template as Template;
  const resources = Object.values(template.Resources);
  const functions: SynthesizedRoles['functions'] = {};
  for (const { entry, fn } of stack.functions.all) {
    const roleLogicalId = logicalIdOf(stack, fn.role.roleArn);
    const role = template.Resources[roleLogicalId]?.Properties ?? {};
    const inline = ((role.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map(
      (p) => p.PolicyDocument,
    );
    const attached = resources
      .filter((r) => r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy')
      .filter((r) => refs(r.Properties?.Roles).some((ref) => refId(ref) === roleLogicalId))
      .map((r) => r.Properties!.PolicyDocument);
    functions[entry.name] = { roleLogicalId, policies: [...inline, ...attached] };
  }
  const resourcePolicies = resources.flatMap((r) => {
    const props = r.Properties ?? {};
    if (r.Type === 'AWS::S3::BucketPolicy') return [{ target: props.Bucket, document: props.PolicyDocument }];
    if (r.Type === 'AWS::SQS::QueuePolicy')
      return refs(props.Queues).map((target) => ({ target, document: props.PolicyDocument }));
    return [];
  });
  return { functions, resourcePolicies, references: localReferences(stack) };
}

/**
 * Synthesizes the roles into `dir` as `roles-<hash>.json`, where the hash is {@link rolesHash} of the files the synth
 * reads (this module's import graph and the lock file), and names those files in `dir/index.json` for the next
 * start to hash again (roles.ts `loadSynthesizedRoles`).
 */
function writeRoles(dir: string): void {
  const files = [
    ...moduleGraph(fileURLToPath(import.meta.url)).files,
    join(REPO_ROOT, 'package-lock.json'),
  ].map((file) => relative(REPO_ROOT, file));
  const roles = synthesizeRoles();
  mkdirSync(dir, { recursive: true });
  // Written whole, then renamed: a reader never sees half a file, and two writers leave one whole.
  const write = (name: string, value: unknown) => {
    const partial = join(dir, `${name}.${process.pid}.tmp`);
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, join(dir, name));
  };
  write(rolesFileName(rolesHash(files)), roles);
  write(INDEX_FILE, { files });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: synth-roles.ts <cache dir>');
  writeRoles(dir);
}
