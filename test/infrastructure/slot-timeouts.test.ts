import { App, type Stack } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import { SLOT_FUNCTION } from '../../infrastructure/constructs/slot-timeout';
import { pascalCase } from '../../infrastructure/constructs/naming';
import { generationTimeBudget } from '../../functions/domain/generation-deadline';
import { appFunctions, testStack } from './helpers';

/*
 * The slot's timeouts follow the configured model and quality's documented worst case (functions/domain/
 * provider-timeouts.ts): the OpenAI client's (OPENAI_TIMEOUT_SECONDS in every function), the CallProvider
 * function's Lambda timeout, and its Task's TimeoutSeconds in the workflow (a substitution).
 */

function slot(template: Template) {
  const fn = appFunctions(template).get(pascalCase(SLOT_FUNCTION))!.resource.Properties as {
    Timeout: number;
    Environment: { Variables: Record<string, string> };
  };
  const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
  const values = machine!.Properties!.DefinitionSubstitutions as Record<string, string>;
  return {
    client: Number(fn.Environment.Variables.OPENAI_TIMEOUT_SECONDS),
    model: fn.Environment.Variables.OPENAI_IMAGE_MODEL,
    lambda: fn.Timeout,
    task: Number(values.GenerateHeadshotTimeoutSeconds),
    execution: Number(values.ExecutionTimeoutSeconds),
  };
}

/** The warnings that the slot's Task cannot finish inside the execution. */
const slotTaskWarnings = (stack: Stack) =>
  Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('slot Task'));

/** Each model and quality, its stack's id, and the slot's client, Lambda and Task timeouts in seconds. */
const MODELS = [
  {
    title: 'default model (gpt-image-2.6-sunburst, high): client 180 s, Lambda 240 s, Task 270 s',
    settings: {},
    id: undefined,
    expected: { client: 180, model: 'gpt-image-2.6-sunburst', lambda: 240, task: 270 },
  },
  {
    title:
      'a slower model: gpt-image-2 at high waits its 240 s worst case × 1.5, and the Lambda and Task follow',
    settings: { openAiImageModel: 'gpt-image-2' },
    id: 'Slow',
    expected: { client: 360, model: 'gpt-image-2', lambda: 420, task: 450 },
  },
  {
    title: 'a faster tier: gpt-image-2.6-flare at low',
    settings: { openAiImageModel: 'gpt-image-2.6-flare', openAiImageQuality: 'low' },
    id: 'Fast',
    expected: { client: 30, model: 'gpt-image-2.6-flare', lambda: 90, task: 120 },
  },
] as const;

describe('the slot timeouts', () => {
  for (const { title, settings, id, expected } of MODELS) {
    it(title, () => {
      const { template, stack } = testStack({ stage: 'dev', ...settings }, id);
      // Changed with the split (issue 25.5): the slot's worst case is the call's Task and FinishHeadshot's 90 s,
      // within the 30-minute deadline and 300 s for the finishing steps.
      expect(slot(template)).toEqual({ ...expected, execution: 30 * 60 + expected.task + 90 + 300 });
      expect(slotTaskWarnings(stack)).toHaveLength(0);
    });
  }

  it('-c openaiTimeoutSeconds overrides the worst case; the execution timeout grows with it', () => {
    const { template, stack } = testStack(
      { stage: 'dev', openAiTimeoutSeconds: 840, generationDeadlineMinutes: 45 },
      'Override',
    );
    expect(slot(template)).toMatchObject({ client: 840, lambda: 900, task: 930 });
    // A call admitted just before the deadline runs its whole 930 s (and its finishing 90 s) and still finishes inside the execution: the
    // state machine's timeout is the time budget's (functions/domain/generation-deadline.ts), so nothing to warn of.
    expect(slot(template).execution).toBe(generationTimeBudget(45, 930 + 90).executionTimeoutSeconds);
    expect(slot(template).execution).toBe(45 * 60 + 930 + 90 + 300);
    expect(slotTaskWarnings(stack)).toHaveLength(0);
  });

  it('refuses a timeout Lambda cannot give, and a quality that is no tier', () => {
    const app = new App({ context: { openaiTimeoutSeconds: '900', openaiImageQuality: 'ultra' } });
    expect(() => settingsFromContext(app.node)).toThrow(
      /openaiTimeoutSeconds "900": whole seconds from 1 to 840/,
    );
    expect(() => settingsFromContext(app.node)).toThrow(/openaiImageQuality "ultra"/);
    const ok = new App({ context: { openaiTimeoutSeconds: '600', openaiImageQuality: 'medium' } });
    expect(settingsFromContext(ok.node)).toMatchObject({
      openAiTimeoutSeconds: 600,
      openAiImageQuality: 'medium',
    });
  });
});
