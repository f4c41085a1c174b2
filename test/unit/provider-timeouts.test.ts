import { describe, expect, it } from 'vitest';
import { leaseMsFor } from '../../functions/domain/provider-queue';
import {
  FINISH_TASK_SECONDS,
  MAX_CLIENT_TIMEOUT_SECONDS,
  providerTimeouts,
  slotTaskTimeoutSeconds,
  TimeoutConfigError,
} from '../../functions/domain/provider-timeouts';

/*
 * The slot's timeouts follow the model and quality's documented worst case (the model table), and the admission
 * lease outlives a slower configuration's Task.
 */

describe('providerTimeouts', () => {
  it('the default model at high: client 180 s, Lambda 240 s, Task 270 s (as before the table)', () => {
    // slotSeconds is new with the split of the slot into CallProvider and FinishHeadshot: both Tasks (270 + 90 s).
    expect(providerTimeouts('gpt-image-2.6-sunburst', 'high')).toEqual({
      clientSeconds: 180,
      lambdaSeconds: 240,
      taskSeconds: 270,
      slotSeconds: 270 + FINISH_TASK_SECONDS,
    });
    expect(FINISH_TASK_SECONDS).toBe(90);
  });

  it('follows the model and quality: gpt-image-2 at high waits longer, 2.6 Flare at low much less', () => {
    expect(providerTimeouts('gpt-image-2', 'high').clientSeconds).toBe(360);
    expect(providerTimeouts('gpt-image-2.6-flare', 'low').clientSeconds).toBe(30);
    // auto is timed as high
    expect(providerTimeouts('gpt-image-2', 'auto')).toEqual(providerTimeouts('gpt-image-2', 'high'));
  });

  it('an unknown model gets the table longest worst case; an override wins', () => {
    expect(providerTimeouts('gpt-image-9', 'high').clientSeconds).toBe(360);
    expect(providerTimeouts('gpt-image-2', 'high', 600)).toEqual({
      clientSeconds: 600,
      lambdaSeconds: 660,
      taskSeconds: 690,
      slotSeconds: 780,
    });
  });

  it('refuses a timeout that would take the Lambda past 900 s', () => {
    expect(providerTimeouts('gpt-image-2', 'high', MAX_CLIENT_TIMEOUT_SECONDS).lambdaSeconds).toBe(900);
    expect(() => providerTimeouts('gpt-image-2', 'high', MAX_CLIENT_TIMEOUT_SECONDS + 1)).toThrow(
      TimeoutConfigError,
    );
    expect(() => providerTimeouts('gpt-image-2', 'high', 0)).toThrow(TimeoutConfigError);
  });

  it('the local Step Functions substitutes the Task timeout from the handlers environment', () => {
    expect(slotTaskTimeoutSeconds({})).toBe(270);
    expect(slotTaskTimeoutSeconds({ OPENAI_IMAGE_MODEL: 'gpt-image-2' })).toBe(450);
    expect(slotTaskTimeoutSeconds({ OPENAI_TIMEOUT_SECONDS: '30' })).toBe(120);
  });
});

describe('admission leases', () => {
  it("outlive a retried provider call and the finishing, whatever the model's timeouts", () => {
    const standard = providerTimeouts('gpt-image-2.6-sunburst', 'high');
    expect(leaseMsFor(standard)).toBe(690_000);
    const slow = providerTimeouts('gpt-image-2.6-sunburst', 'high', 600);
    expect(leaseMsFor(slow)).toBeGreaterThan((slow.taskSeconds + slow.slotSeconds) * 1000);
  });
});
