import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/*
 * A local server speaking OpenAI's Images edit API (`POST /v1/images/edits`), for integration tests and the bench:
 * the real `openai` SDK talks to it. It can be scripted per call (`answer`), and it can enforce a rate limit the way
 * OpenAI does — a per-minute token bucket, and beyond it 429 `rate_limit_exceeded` with `retry-after`,
 * `retry-after-ms` and `x-ratelimit-*` headers — with a configurable latency before each image.
 */

/** One `POST /v1/images/edits` the stand-in received. */
export interface EditCall {
  /** 0-based, in arrival order. */
  index: number;
  model: string;
  prompt: string;
  size: string;
  quality: string;
  n: string;
  inputFidelity: string | null;
  /** The `image[]` parts (or the single `image` part). */
  images: { name: string; type: string; bytes: Buffer }[];
  authorization: string | undefined;
}

/** What the stand-in answers one call with: a status and JSON body, or `image` (a real edit-like result). */
/** `image`: the first reference, tinted; `{ image }`: these bytes (e.g. another person's face); else an error. */
export type EditAnswer =
  'image' | { image: Buffer } | { status: number; body: unknown; headers?: Record<string, string> };

/**
 * OpenAI-like rate limit: `limit` images per `windowMs` (a minute by default; tests shorten the window to run a
 * "minute" in seconds), from a token bucket holding at most `burst` images (default: the whole limit).
 */
export interface RateLimit {
  limit: number;
  windowMs?: number;
  burst?: number;
}

/** A running stand-in. */
export interface FakeOpenAi {
  /** The base URL to give the SDK (`…/v1`). */
  baseURL: string;
  calls: EditCall[];
  /** Decides each answer; the default answers every call with an image. May wait (a slow provider). */
  answer: (call: EditCall) => EditAnswer | Promise<EditAnswer>;
  /** The rate limit in force (`undefined`: none); may be changed between tests. */
  rateLimit: RateLimit | undefined;
  /** Wait before each image answer, in ms (OpenAI edits take a minute or more; tests use much less). */
  latencyMs: number;
  /** Counters since start (or the last `resetStats`). */
  stats: { served: number; throttled: number; inFlight: number; maxInFlight: number };
  resetStats(): void;
  close(): Promise<void>;
}

async function readMultipart(req: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request('http://fake.local/', {
    method: 'POST',
    headers,
    body: Buffer.concat(chunks),
  }).formData();
}

/** An edit-like result: the first reference photo, squared to 1024×1024 and tinted, as a real JPEG (base64). */
async function editedImage(call: EditCall): Promise<string> {
  const source = call.images[0]?.bytes;
  const jpeg = await sharp(source)
    .resize(1024, 1024, { fit: 'cover' })
    .tint('#d9c7b0')
    .jpeg({ quality: 85 })
    .toBuffer();
  return jpeg.toString('base64');
}

/** OpenAI's duration format for `x-ratelimit-reset-*`: `6m0s`, `1s`, `250ms`. */
function resetText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${Number(seconds.toFixed(3))}s`;
  return `${Math.floor(seconds / 60)}m${Number((seconds % 60).toFixed(3))}s`;
}

/** A token bucket like the provider's: `take()` answers whether a call may go, and the headers to send. */
function createBucket(getLimit: () => RateLimit | undefined) {
  let tokens = Number.NaN;
  let at = Date.now();
  let current: RateLimit | undefined;
  return {
    take(now = Date.now()): { ok: boolean; headers: Record<string, string> } {
      const limit = getLimit();
      if (!limit) return { ok: true, headers: {} };
      const windowMs = limit.windowMs ?? 60_000;
      const burst = limit.burst ?? limit.limit;
      if (limit !== current || Number.isNaN(tokens)) {
        current = limit;
        tokens = burst;
        at = now;
      }
      const perMs = limit.limit / windowMs;
      tokens = Math.min(burst, tokens + (now - at) * perMs);
      at = now;
      const ok = tokens >= 1;
      if (ok) tokens -= 1;
      const untilOne = ok ? 0 : (1 - tokens) / perMs;
      const untilFull = (burst - tokens) / perMs;
      const headers: Record<string, string> = {
        'x-ratelimit-limit-requests': String(limit.limit),
        'x-ratelimit-remaining-requests': String(Math.floor(tokens)),
        'x-ratelimit-reset-requests': resetText(untilFull),
      };
      if (!ok) {
        headers['retry-after'] = String(Math.max(1, Math.ceil(untilOne / 1000)));
        headers['retry-after-ms'] = String(Math.ceil(untilOne));
      }
      return { ok, headers };
    },
  };
}

/**
 * Starts the stand-in on a free loopback port. Answers `POST /v1/images/edits` (multipart with repeated `image[]`
 * parts, as the SDK sends several images): with a rate limit set and its bucket empty, 429 `rate_limit_exceeded`
 * with `retry-after` / `retry-after-ms` / `x-ratelimit-*`; otherwise whatever `answer` decides, by default
 * `{ created, data: [{ b64_json }] }` with a 1024×1024 JPEG after `latencyMs`. Every other path is 404.
 */
export async function startFakeOpenAi(
  options: { rateLimit?: RateLimit; latencyMs?: number } = {},
): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseURL: '',
    calls: [],
    answer: () => 'image',
    rateLimit: options.rateLimit,
    latencyMs: options.latencyMs ?? 0,
    stats: { served: 0, throttled: 0, inFlight: 0, maxInFlight: 0 },
    resetStats() {
      fake.stats = { served: 0, throttled: 0, inFlight: 0, maxInFlight: 0 };
    },
    close: async () => undefined,
  };
  const bucket = createBucket(() => fake.rateLimit);
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/images/edits') {
        send(res, 404, { error: { message: 'not found' } });
        return;
      }
      const form = await readMultipart(req);
      const limited = bucket.take();
      if (!limited.ok) {
        fake.stats.throttled += 1;
        const limit = fake.rateLimit!;
        send(
          res,
          429,
          {
            error: {
              message: `Rate limit reached for images per minute (IPM): Limit ${limit.limit}. Please try again in ${limited.headers['retry-after']}s.`,
              type: 'requests',
              param: null,
              code: 'rate_limit_exceeded',
            },
          },
          limited.headers,
        );
        return;
      }
      const parts = [...form.getAll('image[]'), ...form.getAll('image')].filter(
        (p): p is File => typeof p !== 'string',
      );
      const call: EditCall = {
        index: fake.calls.length,
        model: String(form.get('model')),
        prompt: String(form.get('prompt')),
        size: String(form.get('size')),
        quality: String(form.get('quality')),
        n: String(form.get('n')),
        inputFidelity: form.get('input_fidelity') as string | null,
        images: await Promise.all(
          parts.map(async (p) => ({ name: p.name, type: p.type, bytes: Buffer.from(await p.arrayBuffer()) })),
        ),
        authorization: req.headers.authorization,
      };
      fake.calls.push(call);
      fake.stats.inFlight += 1;
      fake.stats.maxInFlight = Math.max(fake.stats.maxInFlight, fake.stats.inFlight);
      try {
        const answer = await fake.answer(call);
        if (answer === 'image' || 'image' in answer) {
          const [b64] = await Promise.all([
            answer === 'image' ? editedImage(call) : answer.image.toString('base64'),
            new Promise((resolve) => setTimeout(resolve, fake.latencyMs)),
          ]);
          fake.stats.served += 1;
          send(
            res,
            200,
            { created: Math.floor(Date.now() / 1000), data: [{ b64_json: b64 }] },
            limited.headers,
          );
        } else {
          send(res, answer.status, answer.body, answer.headers);
        }
      } finally {
        fake.stats.inFlight -= 1;
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** OpenAI's error bodies, as its API sends them. */
export const openAiErrors = {
  rateLimited: {
    status: 429,
    body: {
      error: { message: 'Rate limit reached for images', type: 'requests', code: 'rate_limit_exceeded' },
    },
    headers: { 'retry-after': '1', 'retry-after-ms': '300', 'x-ratelimit-remaining-requests': '0' },
  },
  insufficientQuota: {
    status: 429,
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    },
  },
  moderation: {
    status: 400,
    body: {
      error: {
        message: 'Your request was rejected as a result of our safety system.',
        type: 'image_generation_user_error',
        code: 'moderation_blocked',
      },
    },
  },
  serverError: {
    status: 500,
    body: { error: { message: 'The server had an error processing your request.', type: 'server_error' } },
  },
} as const;
