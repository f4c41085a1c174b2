import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { queueUrlVariable } from '../../../functions/queue-catalogue';
import { REPO_ROOT } from '../support/paths';
import { LOCAL_NAMES } from '../support/settings';
import { mailbox } from './actions';
import type { LocalRoles, PolicyDocument } from './enforcer';
import {
  INDEX_FILE,
  rolesFileName,
  rolesHash,
  SYNTH_CONFIGURATION_SET,
  SYNTH_MAIL_FROM,
  type LocalReference,
  type SynthesizedRoles,
} from './synthesized';

/*
 * The roles the local check decides with: synthesized once per change of the code that makes them (synth-roles.ts,
 * in a child process, about 5 s), kept in node_modules/.cache/headshot-studio/local-iam/ under a hash of the files
 * the synth read, and resolved to the local
 * stack's names — the names the handlers are given in their environment — when first needed and again whenever
 * those names change (a test's own Step Functions server, its own queues).
 */

/** The account of every local ARN (the emulators' convention). */
export const LOCAL_ACCOUNT_ID = '000000000000';

const SYNTH_SCRIPT = join(REPO_ROOT, 'infrastructure', 'local', 'iam', 'synth-roles.ts');
const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'headshot-studio', 'local-iam');

/** The cached roles, when the files the last synth read are as they were then. */
function cachedRoles(): SynthesizedRoles | undefined {
  const index = join(CACHE_DIR, INDEX_FILE);
  if (!existsSync(index)) return undefined;
  const { files } = JSON.parse(readFileSync(index, 'utf8')) as { files: string[] };
  const file = join(CACHE_DIR, rolesFileName(rolesHash(files)));
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SynthesizedRoles) : undefined;
}

let synthesizing: Promise<SynthesizedRoles> | undefined;

/**
 * The synthesized roles of the working tree: from the cache when none of the files the synth reads has changed (a
 * hash of them, about 10 ms), else synthesized in a child process (about 5 s) and cached.
 *
 * @throws {Error} (rejects) when the synth fails: its output is in the message
 */
export function loadSynthesizedRoles(): Promise<SynthesizedRoles> {
  const cached = cachedRoles();
  if (cached) return Promise.resolve(cached);
  synthesizing ??= promisify(execFile)(process.execPath, ['--import', 'tsx', SYNTH_SCRIPT, CACHE_DIR], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  })
    .then(() => {
      const roles = cachedRoles();
      if (!roles)
        throw new Error('the synth wrote no roles for the files as they are now (changed meanwhile?)');
      return roles;
    })
    .catch((error: Error & { stderr?: string }) => {
      throw new Error(
        `Synthesizing the roles for the local IAM check failed: ${error.stderr || error.message}`,
      );
    })
    .finally(() => {
      synthesizing = undefined;
    });
  return synthesizing;
}

/** The local names the references resolve to; {@link localNamesFromEnv} reads them where the handlers do. */
export interface LocalNames {
  region: string;
  table: string;
  uploadsBucket: string;
  resultsBucket: string;
  stateMachineArn: string | undefined;
  /** Queue URL by queue name (dead-letter queues included when known). */
  queueUrls: Record<string, string>;
  userPoolId: string | undefined;
  /** The sender (`MAIL_FROM`) and configuration set (`MAIL_CONFIGURATION_SET`) the notify function sends with. */
  mailFrom: string | undefined;
  configurationSet: string | undefined;
}

/** The local names as the handlers' environment gives them. */
export function localNamesFromEnv(
  env: Record<string, string | undefined>,
  queueNames: readonly string[],
): LocalNames {
  return {
    region: env.AWS_REGION ?? 'us-east-1',
    table: env.TABLE_NAME ?? LOCAL_NAMES.table,
    uploadsBucket: env.UPLOADS_BUCKET ?? LOCAL_NAMES.uploadsBucket,
    resultsBucket: env.RESULTS_BUCKET ?? LOCAL_NAMES.resultsBucket,
    stateMachineArn: env.STATE_MACHINE_ARN,
    queueUrls: Object.fromEntries(
      queueNames.flatMap((name) => {
        const url = env[queueUrlVariable(name)];
        return url ? [[name, url]] : [];
      }),
    ),
    userPoolId: env.COGNITO_USER_POOL_ID,
    mailFrom: env.MAIL_FROM,
    configurationSet: env.MAIL_CONFIGURATION_SET,
  };
}

/** A name with no local counterpart: it matches no local call (a secret, a log group, the Firehose stream). */
const unresolved = (id: string) => `arn:aws:cloudformation:::unresolved/${id}`;

function attribute(
  reference: LocalReference | undefined,
  id: string,
  attr: string,
  names: LocalNames,
): string {
  const { region } = names;
  const account = LOCAL_ACCOUNT_ID;
  switch (reference?.kind) {
    case 'table': {
      const arn = `arn:aws:dynamodb:${region}:${account}:table/${names.table}`;
      return attr === 'Ref' ? names.table : attr === 'StreamArn' ? `${arn}/stream/*` : arn;
    }
    case 'bucket': {
      const name = reference.bucket === 'uploads' ? names.uploadsBucket : names.resultsBucket;
      return attr === 'Ref' ? name : `arn:aws:s3:::${name}`;
    }
    case 'stateMachine': {
      const arn = names.stateMachineArn ?? `arn:aws:states:${region}:${account}:stateMachine:generation`;
      return attr === 'Name' ? arn.split(':').pop()! : arn;
    }
    case 'queue': {
      const url = names.queueUrls[reference.name];
      const queueAccount = url ? new URL(url).pathname.split('/').filter(Boolean)[0] : account;
      const arn = `arn:aws:sqs:${region}:${queueAccount}:${reference.name}`;
      return attr === 'Ref' ? (url ?? unresolved(id)) : attr === 'QueueName' ? reference.name : arn;
    }
    case 'userPool': {
      const poolId = names.userPoolId ?? 'unknown';
      return attr === 'Ref' ? poolId : `arn:aws:cognito-idp:${region}:${account}:userpool/${poolId}`;
    }
    default:
      return unresolved(attr === 'Ref' ? id : `${id}.${attr}`);
  }
}

const PSEUDO: Record<string, (names: LocalNames) => string> = {
  'AWS::Partition': () => 'aws',
  'AWS::Region': (n) => n.region,
  'AWS::AccountId': () => LOCAL_ACCOUNT_ID,
  'AWS::URLSuffix': () => 'amazonaws.com',
  'AWS::StackName': () => 'Local',
};

/**
 * A CloudFormation value with its intrinsics (Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::Split, Fn::Sub) resolved
 * to the local names.
 *
 * @throws {Error} for another intrinsic: a policy the check cannot read must not be read wrong
 */
export function resolveValue(
  value: unknown,
  references: Record<string, LocalReference>,
  names: LocalNames,
): unknown {
  const again = (v: unknown) => resolveValue(v, references, names);
  if (Array.isArray(value)) return value.map(again);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const [key, arg] = entries[0] ?? [];
  if (entries.length === 1 && key !== undefined && (key === 'Ref' || key.startsWith('Fn::'))) {
    switch (key) {
      case 'Ref': {
        const id = arg as string;
        return PSEUDO[id]?.(names) ?? attribute(references[id], id, 'Ref', names);
      }
      case 'Fn::GetAtt': {
        const [id, attr] = (typeof arg === 'string' ? arg.split('.') : arg) as [string, string];
        return attribute(references[id], id, attr, names);
      }
      case 'Fn::Join': {
        const [separator, parts] = arg as [string, unknown[]];
        return (again(parts) as unknown[]).join(separator);
      }
      case 'Fn::Select': {
        const [index, items] = arg as [number | string, unknown];
        return (again(items) as unknown[])[Number(again(index))];
      }
      case 'Fn::Split': {
        const [separator, text] = arg as [string, unknown];
        return String(again(text)).split(separator);
      }
      case 'Fn::Sub': {
        const [text, vars = {}] = (typeof arg === 'string' ? [arg] : arg) as [
          string,
          Record<string, unknown>?,
        ];
        return text.replace(/\$\{([^}!][^}]*)\}/g, (_, name: string) => {
          if (name in vars) return String(again(vars[name]));
          const [id, attr] = name.split('.') as [string, string?];
          return attr ? String(again({ 'Fn::GetAtt': [id, attr] })) : String(again({ Ref: id }));
        });
      }
      default:
        throw new Error(`The local IAM check cannot resolve ${key} in a policy: ${JSON.stringify(value)}`);
    }
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, again(v)]));
}

/** The synthesized roles with the local names in place of the template's references and the synth's sender. */
export function resolveLocalRoles(synthesized: SynthesizedRoles, names: LocalNames): LocalRoles {
  const from = names.mailFrom ? mailbox(names.mailFrom) : undefined;
  const local = (document: unknown): PolicyDocument => {
    let text = JSON.stringify(resolveValue(document, synthesized.references, names));
    if (from) {
      text = text
        .replaceAll(SYNTH_MAIL_FROM, from)
        .replaceAll(`identity/${SYNTH_MAIL_FROM.split('@')[1]}`, `identity/${from.split('@')[1]}`);
    }
    if (names.configurationSet) text = text.replaceAll(SYNTH_CONFIGURATION_SET, names.configurationSet);
    return JSON.parse(text) as PolicyDocument;
  };
  const functions: LocalRoles['functions'] = {};
  for (const [name, { roleLogicalId, policies }] of Object.entries(synthesized.functions))
    functions[name] = { roleName: roleLogicalId, policies: policies.map(local) };
  const resourcePolicies: LocalRoles['resourcePolicies'] = {};
  for (const { target, document } of synthesized.resourcePolicies) {
    const id = (target as { Ref?: string }).Ref ?? '';
    const reference = synthesized.references[id];
    if (!reference) continue; // A bucket or queue the local stack does not have (logs, site, other dead letters).
    resourcePolicies[attribute(reference, id, 'Arn', names)] = local(document);
  }
  return { accountId: LOCAL_ACCOUNT_ID, functions, resourcePolicies };
}
