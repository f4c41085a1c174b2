import { describe, expect, it } from 'vitest';
import { buildGenerationPrompt } from '../../../functions/use-cases/build-prompt';
import { GenerationClosedError, GenerationNotFoundError } from '../../../functions/domain/generation-errors';
import { PROGRESS } from '../../../functions/domain/generation-status';
import { buildPrompt, OUTFIT_PHRASES } from '../../../functions/domain/prompts';
import { failing } from './fakes/failures';
import { FakeGenerations } from './fakes/generations';

const SUB = 'user-1';
const CHOICE = { style: 'creative', background: 'outdoor' } as const;

describe('buildGenerationPrompt', () => {
  it('answers the prompt of the style and background, and moves the generation to generating', async () => {
    const generations = new FakeGenerations();
    const { id } = generations.seed({ status: 'running', stage: 'preparing', progress: PROGRESS.prepared });
    const answer = await buildGenerationPrompt(SUB, id, CHOICE, generations);
    expect(answer).toEqual({ prompt: buildPrompt(CHOICE) });
    expect(answer.prompt).toContain(OUTFIT_PHRASES['own-clothing']);
    expect(generations.stored(SUB, id)).toMatchObject({ stage: 'generating', progress: PROGRESS.generating });
  });

  it('dresses the person in the outfit stored on the generation', async () => {
    const generations = new FakeGenerations();
    const { id } = generations.seed({ status: 'running', outfit: 'suit-and-tie' });
    const { prompt } = await buildGenerationPrompt(SUB, id, CHOICE, generations);
    expect(prompt).toBe(buildPrompt({ ...CHOICE, outfit: 'suit-and-tie' }));
    expect(prompt).toContain(OUTFIT_PHRASES['suit-and-tie']);
    expect(prompt).not.toContain(OUTFIT_PHRASES['own-clothing']);
  });

  it('refuses a generation compensated meanwhile, and one that is gone', async () => {
    const generations = new FakeGenerations();
    const { id } = generations.seed({ status: 'failed', closedAt: '2026-01-01T00:01:00.000Z' });
    await expect(buildGenerationPrompt(SUB, id, CHOICE, generations)).rejects.toBeInstanceOf(
      GenerationClosedError,
    );
    await expect(buildGenerationPrompt('user-2', id, CHOICE, generations)).rejects.toBeInstanceOf(
      GenerationNotFoundError,
    );
  });

  it('fails when the step cannot be recorded (the task is retried)', async () => {
    await expect(
      buildGenerationPrompt(SUB, 'id', CHOICE, {
        requireGeneration: failing(new Error('table down')),
        recordStep: failing(new Error('not reached')),
      }),
    ).rejects.toThrow('table down');
    const generations = new FakeGenerations();
    const { id } = generations.seed({ status: 'running' });
    await expect(
      buildGenerationPrompt(SUB, id, CHOICE, {
        requireGeneration: generations.requireGeneration,
        recordStep: failing(new Error('throttled')),
      }),
    ).rejects.toThrow('throttled');
  });
});
