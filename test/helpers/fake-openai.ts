import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../infrastructure/local/stand-ins/openai/server';

/**
 * The strict OpenAI stand-in for one test file: started once on `today`'s clock, emptied of calls and refusals and
 * back to answering images after each test, closed at the end. Read it through the returned getter (it exists once
 * `beforeAll` ran).
 */
export function useFakeOpenAi(today: Date): () => FakeOpenAi {
  let fake: FakeOpenAi | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAi({ clock: () => today });
  });
  afterAll(() => fake?.close());
  afterEach(() => {
    if (!fake) return;
    fake.clock = () => today;
    fake.calls.length = 0;
    fake.refused.length = 0;
    fake.answer = () => 'image';
  });
  return () => {
    if (!fake) throw new Error('The OpenAI stand-in starts in beforeAll');
    return fake;
  };
}
