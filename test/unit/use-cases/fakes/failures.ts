/** A port that always fails with `error` (an outage of a provider, the table or a bucket). */
export function failing(error: unknown = new Error('port down')): () => Promise<never> {
  return async () => {
    throw error;
  };
}

/** A port that fails its first `times` calls with `error`, then does what `port` does (a lost race, a blip). */
export function failingFirst<A extends unknown[], R>(
  times: number,
  error: unknown,
  port: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  let calls = 0;
  return async (...args: A) => {
    if (++calls <= times) throw error;
    return port(...args);
  };
}
