import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { ImageOutputFormat } from '../../../../functions/domain/openai-image-models';
import { openAiErrors, type OpenAiErrorAnswer } from './errors';
import { createBucket, type RateLimit } from './rate-limit';
import { holdIdleConnections } from '../../support/http';
import { retrieveModel } from './models';
import { checkAuthorization, validateEdit, type ImagePart } from './validate';
import { sendEditStream, type StreamScript } from './stream';
import { answerSize, editUsage } from './usage';

export { answerSize } from './usage';

export { openAiErrors, refusals, type OpenAiErrorAnswer } from './errors';
export type { RateLimit } from './rate-limit';

/*
 * A local server speaking OpenAI's Images edit API (`POST /v1/images/edits`) and `GET /v1/models/{model}` (models.ts:
 * the image models' calendar, `shutdown_date` included), as strict as OpenAI: the key, every
 * field, the model (known, not shut down by the request's date) and each parameter are checked against the model
 * table (functions/domain/openai-image-models.ts) and refused with OpenAI's status and error body (errors.ts,
 * validate.ts). The real `openai` SDK talks to it. It can be scripted per call (`answer`), and it can enforce a rate
 * limit the way OpenAI does, with a configurable latency before each image.
 */

/** One accepted `POST /v1/images/edits`. */
export interface EditCall {
  /** 0-based, in arrival order of accepted calls. */
  index: number;
  model: string;
  prompt: string;
  size: string;
  quality: string;
  /** `n` as sent (a form field: text). */
  n: string;
  inputFidelity: string | null;
  /** The caller's `safety_identifier` as sent, `null` when none was (validate.ts checks it as OpenAI does). */
  safetyIdentifier: string | null;
  /** The output format asked for (`png` when none was). */
  outputFormat: ImageOutputFormat;
  outputCompression: number | null;
  /** The `image[]` parts (or the single `image` part). */
  images: ImagePart[];
  /** `background` as sent (`auto` when none was). */
  background: 'transparent' | 'opaque' | 'auto';
  /** `complexity` as sent, `null` when none was. */
  complexity: string | null;
  /** Whether the call asked server-sent events (`stream: true`). */
  stream: boolean;
  /** `partial_images` as sent (0 when none was). */
  partialImages: number;
  authorization: string | undefined;
}

/** What the stand-in answers one call with: a status and JSON body, or `image` (a real edit-like result). */
/** `image`: the first reference, tinted; `{ image }`: these bytes (e.g. another person's face); else an error. */
/** `{ stream }`: a streamed call's script (stream.ts): fewer partial images than asked, or an `error` event. */
export type EditAnswer =
  | 'image'
  | { image: Buffer }
  | { stream: StreamScript }
  | { status: number; body: unknown; headers?: Record<string, string> };

/** A request the stand-in refused (as OpenAI would have): what was asked and what it answered. */
export interface Refusal {
  model: string | null;
  fields: string[];
  answer: OpenAiErrorAnswer;
}

/** A running stand-in. */
export interface FakeOpenAi {
  /** The base URL to give the SDK (`…/v1`). */
  baseURL: string;
  calls: EditCall[];
  /** Requests refused by OpenAI's rules (not counted in `calls`). */
  refused: Refusal[];
  /** Decides each answer to an accepted call; the default answers with an image. May wait (a slow provider). */
  answer: (call: EditCall) => EditAnswer | Promise<EditAnswer>;
  /** The rate limit in force (`undefined`: none); may be changed between tests. */
  rateLimit: RateLimit | undefined;
  /** Wait before each image answer, in ms (OpenAI edits take a minute or more; tests use much less). */
  latencyMs: number;
  /** The request's date, for model shutdowns (default: now); may be changed between tests. */
  clock: () => Date;
  /**
   * Shutdown dates a test announces per model id (`YYYY-MM-DD`, or `null`: none), replacing the model table's in
   * `GET /v1/models/{model}` (the edits keep the table's dates); may be changed between tests.
   */
  shutdownDates: Map<string, string | null>;
  /** The model ids of every authorised `GET /v1/models/{model}`, in order. */
  modelReads: string[];
  /** Counters since start (or the last `resetStats`). */
  stats: { served: number; throttled: number; inFlight: number; maxInFlight: number };
  /**
   * Each authorised request's arrival (epoch ms) and whether the rate limit refused it, in order (the bench's
   * timeline of calls against the limit); emptied by `resetStats`.
   */
  arrivals: { at: number; throttled: boolean }[];
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

/**
 * An edit-like result: the first reference photo, cropped to the asked size ({@link answerSize}) and tinted, in the
 * asked format (PNG when none was asked, as OpenAI answers; JPEG/WebP at `output_compression` when given), base64.
 */
async function editedImage(call: EditCall): Promise<string> {
  const { width, height } = answerSize(call.size);
  let image = sharp(call.images[0]?.bytes).resize(width, height, { fit: 'cover' }).tint('#d9c7b0');
  if (call.background === 'transparent' && call.outputFormat !== 'jpeg') {
    // A transparent answer has an alpha channel: the person (an ellipse here) kept, the rest clear.
    const ellipse = `<svg width="${width}" height="${height}"><ellipse cx="${width / 2}" cy="${height / 2}" rx="${width * 0.35}" ry="${height * 0.45}"/></svg>`;
    image = sharp(await image.ensureAlpha().png().toBuffer()).composite([
      { input: Buffer.from(ellipse), blend: 'dest-in' },
    ]);
  }
  const quality = call.outputCompression ?? 100;
  const encoded =
    call.outputFormat === 'jpeg'
      ? image.jpeg({ quality: Math.max(1, quality) })
      : call.outputFormat === 'webp'
        ? image.webp({ quality: Math.max(1, quality) })
        : image.png();
  return (await encoded.toBuffer()).toString('base64');
}

async function imageParts(form: FormData): Promise<ImagePart[]> {
  const parts = [...form.getAll('image[]'), ...form.getAll('image')].filter(
    (p): p is File => typeof p !== 'string',
  );
  return Promise.all(
    parts.map(async (p) => ({ name: p.name, type: p.type, bytes: Buffer.from(await p.arrayBuffer()) })),
  );
}

/**
 * Starts the stand-in on a free loopback port. `POST /v1/images/edits` (multipart with repeated `image[]` parts, as
 * the SDK sends several images) is answered: 401 without a `Bearer sk-…` key; with a rate limit set and its bucket
 * empty, 429 `rate_limit_exceeded` with `retry-after` / `retry-after-ms` / `x-ratelimit-*`; OpenAI's 400/404 for
 * anything OpenAI refuses (validate.ts); otherwise whatever `answer` decides, by default
 * `{ created, data: [{ b64_json }], output_format, quality, size }` with an image of the asked size after `latencyMs`.
 * Every other path is 404.
 *
 * @param options.clock the request's date (default now): models past their shutdown date are refused
 */
export async function startFakeOpenAi(
  options: { rateLimit?: RateLimit; latencyMs?: number; clock?: () => Date } = {},
): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseURL: '',
    calls: [],
    refused: [],
    answer: () => 'image',
    rateLimit: options.rateLimit,
    latencyMs: options.latencyMs ?? 0,
    clock: options.clock ?? (() => new Date()),
    shutdownDates: new Map(),
    modelReads: [],
    stats: { served: 0, throttled: 0, inFlight: 0, maxInFlight: 0 },
    arrivals: [],
    resetStats() {
      fake.stats = { served: 0, throttled: 0, inFlight: 0, maxInFlight: 0 };
      fake.arrivals = [];
    },
    close: async () => undefined,
  };
  const bucket = createBucket(() => fake.rateLimit);
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const modelPath = /^\/v1\/models\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && modelPath) {
        const unauthorized = checkAuthorization(req.headers.authorization);
        if (unauthorized) {
          send(res, unauthorized.status, unauthorized.body);
          return;
        }
        const id = decodeURIComponent(modelPath[1]!);
        fake.modelReads.push(id);
        const answer = retrieveModel(id, fake.clock(), fake.shutdownDates);
        send(res, answer.status, answer.body);
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/images/edits') {
        send(res, 404, {
          error: {
            message: `Invalid URL (${req.method} ${req.url})`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
        return;
      }
      const form = await readMultipart(req);
      const unauthorized = checkAuthorization(req.headers.authorization);
      if (unauthorized) {
        fake.refused.push({ model: null, fields: [...new Set(form.keys())], answer: unauthorized });
        send(res, unauthorized.status, unauthorized.body);
        return;
      }
      const limited = bucket.take();
      fake.arrivals.push({ at: Date.now(), throttled: !limited.ok });
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
      const checked = validateEdit(form, await imageParts(form), fake.clock());
      if (!checked.ok) {
        const model = form.get('model');
        fake.refused.push({
          model: typeof model === 'string' ? model : null,
          fields: [...new Set(form.keys())],
          answer: checked.refusal,
        });
        send(res, checked.refusal.status, checked.refusal.body);
        return;
      }
      const { edit } = checked;
      const call: EditCall = {
        index: fake.calls.length,
        model: edit.model.id,
        prompt: edit.prompt,
        size: edit.size,
        quality: edit.quality,
        n: String(edit.n),
        inputFidelity: edit.inputFidelity,
        safetyIdentifier: edit.safetyIdentifier,
        outputFormat: edit.outputFormat,
        outputCompression: edit.outputCompression,
        images: edit.images,
        background: edit.background,
        complexity: edit.complexity,
        stream: edit.stream,
        partialImages: edit.partialImages,
        authorization: req.headers.authorization,
      };
      fake.calls.push(call);
      fake.stats.inFlight += 1;
      fake.stats.maxInFlight = Math.max(fake.stats.maxInFlight, fake.stats.inFlight);
      try {
        const answer = await fake.answer(call);
        if (call.stream && (answer === 'image' || 'stream' in answer || 'image' in answer)) {
          // A scripted image (another person's face) streams as the final image, as a made one does; the latency is
          // spread over the partials and the final (stream.ts), so a preview shows before the result.
          const b64 =
            answer !== 'image' && 'image' in answer
              ? answer.image.toString('base64')
              : await editedImage(call);
          fake.stats.served += 1;
          const script = answer !== 'image' && 'stream' in answer ? answer.stream : {};
          await sendEditStream(res, call, b64, { latencyMs: fake.latencyMs, ...script }, limited.headers);
        } else if (answer === 'image' || 'image' in answer) {
          const [b64] = await Promise.all([
            answer === 'image' ? editedImage(call) : answer.image.toString('base64'),
            new Promise((resolve) => setTimeout(resolve, fake.latencyMs)),
          ]);
          fake.stats.served += 1;
          send(
            res,
            200,
            {
              created: Math.floor(fake.clock().getTime() / 1000),
              background: call.background === 'transparent' ? 'transparent' : 'opaque',
              data: [{ b64_json: b64 }],
              output_format: call.outputFormat,
              quality: call.quality,
              size: call.size === 'auto' ? '1024x1024' : call.size,
              usage: editUsage(call),
            },
            limited.headers,
          );
        } else if ('status' in answer) {
          send(res, answer.status, answer.body, answer.headers);
        } else {
          throw new Error('A stream script answers a call that did not ask stream: true');
        }
      } finally {
        fake.stats.inFlight -= 1;
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      // Our own fault, answered as OpenAI answers its own: a 500 `server_error` body (the SDK maps it to unavailable).
      res.end(JSON.stringify(openAiErrors.serverError.body));
      console.error('OpenAI stand-in failed:', error);
    });
  });
  // Idle keep-alive sockets outlive a loaded machine's pauses (see holdIdleConnections): the SDK reuses them.
  holdIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
