/*
 * The shapes synth-roles.ts writes and roles.ts reads, apart from the synth itself so that reading them never loads
 * the CDK.
 */

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
