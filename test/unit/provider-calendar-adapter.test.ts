import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError } from 'openai';
import { createModelCalendar, ProviderModelNotFoundError } from '../../functions/adapters/provider-calendar';
import { startFakeOpenAi, type FakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';

/*
 * The calendar adapter (functions/adapters/provider-calendar.ts) with the real `openai` SDK against the strict OpenAI
 * stand-in's `GET /v1/models/{model}` (infrastructure/local/stand-ins/openai/models.ts): the shape, a date a test
 * announces, the 404 of a model OpenAI does not serve, and a refused key.
 */

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ clock: () => new Date('2026-11-29T10:00:00Z') });
});
afterAll(() => fake.close());

const calendar = () => createModelCalendar({ apiKey: 'sk-test-calendar', baseURL: fake.baseURL });

describe('provider calendar adapter against the OpenAI stand-in', () => {
  it('a model with no shutdown announced: its id and a null date', async () => {
    fake.shutdownDates.clear();
    expect(await calendar().retrieve('gpt-image-2.6-sunburst')).toEqual({
      id: 'gpt-image-2.6-sunburst',
      shutdownDate: null,
    });
    expect(fake.modelReads.at(-1)).toBe('gpt-image-2.6-sunburst');
  });

  it("the date a test announces, and the model table's own dates (gpt-image-1.5 on 2026-12-01)", async () => {
    fake.shutdownDates.set('gpt-image-2.6-sunburst', '2027-03-01');
    expect(await calendar().retrieve('gpt-image-2.6-sunburst')).toEqual({
      id: 'gpt-image-2.6-sunburst',
      shutdownDate: '2027-03-01',
    });
    expect(await calendar().retrieve('gpt-image-1.5')).toEqual({
      id: 'gpt-image-1.5',
      shutdownDate: '2026-12-01',
    });
    fake.shutdownDates.clear();
  });

  it("answers OpenAI's Model object: id, object, created, owned_by, shutdown_date", async () => {
    fake.shutdownDates.set('gpt-image-2', '2027-04-21');
    const response = await fetch(`${fake.baseURL}/models/gpt-image-2`, {
      headers: { authorization: 'Bearer sk-test-calendar' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: 'gpt-image-2',
      object: 'model',
      created: expect.any(Number) as number,
      owned_by: 'system',
      shutdown_date: '2027-04-21',
    });
    fake.shutdownDates.clear();
  });

  it("an unknown or shut-down model: OpenAI's 404 model_not_found, thrown as ProviderModelNotFoundError", async () => {
    const response = await fetch(`${fake.baseURL}/models/gpt-image-9`, {
      headers: { authorization: 'Bearer sk-test-calendar' },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        message: 'The model `gpt-image-9` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
    await expect(calendar().retrieve('gpt-image-9')).rejects.toBeInstanceOf(ProviderModelNotFoundError);
    // gpt-image-1 shut down on 2026-10-23 (the model table): gone from the calendar too.
    await expect(calendar().retrieve('gpt-image-1')).rejects.toThrow(
      /does not exist or you do not have access/,
    );
  });

  it("a malformed key: OpenAI's 401, the SDK's AuthenticationError (not a 404)", async () => {
    const bad = createModelCalendar({ apiKey: 'not-a-key', baseURL: fake.baseURL });
    await expect(bad.retrieve('gpt-image-2.6-sunburst')).rejects.toBeInstanceOf(AuthenticationError);
  });
});
