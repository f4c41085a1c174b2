import { Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Data } from './constructs/data';

/** Properties of {@link HeadshotStudioStack}. */
export interface HeadshotStudioStackProps extends StackProps {
  /** Deployment stage, e.g. `dev` or `prod`; `prod` retains and protects stateful resources. */
  stage: string;
}

/**
 * The one stack of Headshot Studio. It only wires small constructs together (DESIGN.md §6); each construct holds its
 * own defaults. Constructs land with the features that need them: Data now; Auth, Storage, Api, Workflow, Site and
 * Payments with their issues.
 */
export class HeadshotStudioStack extends Stack {
  constructor(scope: Construct, id: string, props: HeadshotStudioStackProps) {
    super(scope, id, props);
    Tags.of(this).add('app', 'headshot-studio');
    Tags.of(this).add('stage', props.stage);
    new Data(this, 'Data', { stage: props.stage });
  }
}
