import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths';

/*
 * The shapes synth-roles.ts writes and roles.ts reads, and their cache's names, apart from the synth itself so that
 * reading them never loads the CDK.
 */

/** The cache's index: the files (relative to the repository) the last synth read. */
export const INDEX_FILE = 'index.json';

/** The cache file of the roles synthesized from files whose {@link rolesHash} is `hash`. */
export const rolesFileName = (hash: string) => `roles-${hash}.json`;

/** A hash of `files` (relative to the repository): their names and contents; a missing file counts as missing. */
export function rolesHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(REPO_ROOT, file);
    hash.update(file).update('\0');
    hash.update(existsSync(path) ? readFileSync(path) : 'missing').update('\0');
  }
  return hash.digest('hex').slice(0, 32);
}

/** What a logical id stands for locally. */
export type LocalReference =
  | { kind: 'table' }
  | { kind: 'bucket'; bucket: 'uploads' | 'results' }
  | { kind: 'stateMachine' }
  | { kind: 'queue'; name: string }
  | { kind: 'userPool' };

/** The synthesized roles and resource policies, intrinsics unresolved (CloudFormation JSON). */
export interface SynthesizedRoles {
  /** By function name: the role's logical id and its policy documents. */
  functions: Record<string, { roleLogicalId: string; policies: unknown[] }>;
  /** Each resource policy with the reference (`{ Ref: <logical id> }`) of the bucket or queue it belongs to. */
  resourcePolicies: { target: unknown; document: unknown }[];
  references: Record<string, LocalReference>;
}

/**
 * The sender the synth configures (`mailFrom`), so the notify function gets its `ses:SendEmail` grant as a deployment
 * with mail does; roles.ts puts the local sender (`MAIL_FROM`) in its place, and the local configuration set in
 * place of {@link SYNTH_CONFIGURATION_SET}.
 */
export const SYNTH_MAIL_FROM = 'sender@synth-sender.invalid';
export const SYNTH_CONFIGURATION_SET = 'synth-configuration-set';
