import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import type { EditCall } from './server';
import { editUsage } from './usage';

/*
 * The streamed answer of `POST /v1/images/edits` with `stream: true`, as OpenAI sends it: `text/event-stream`, each
 * frame named on the wire (`event: image_edit.partial_image` / `event: image_edit.completed`, stdapi-ai/stdapi.ai#230)
 * with the event's JSON as `data` (the API reference's edit streaming events,
 * https://developers.openai.com/api/reference/resources/images/edit-streaming-events; the `openai` SDK 7.57.0
 * `ImageEditPartialImageEvent` / `ImageEditCompletedEvent`). Up to `partial_images` partials, then the final image,
 * which "may be sent before the full number of partial images" (the SDK's `partial_images`). The completed event's
 * usage counts 100 more image output tokens per partial sent (the image generation guide, "Partial images cost").
 */

/** How a scripted stream departs from the plain one. */
export interface StreamScript {
  /** Partial images sent before the final one (default: all `partial_images` asked; fewer is OpenAI's right). */
  partials?: number;
  /**
   * Ends the stream with an `error` event after the partials instead of the final image: `event: error`, data
   * `{ type: "error", error: { message, type, param, code } }` (the SDK throws `data.error` as an `APIError`; the
   * body is OpenAI's error object, e.g. `moderation_blocked` inside a stream, theopenco/llmgateway#2129).
   */
  error?: { message: string; type: string; param: string | null; code: string | null };
  /** The call's latency, spread evenly before each partial and the final event (ms; default 0). */
  latencyMs?: number;
}

function frame(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * A partial image: the final one at the same size, coarser the earlier it is (scaled down to 1/2^(count-index+1) and
 * back up: what a developing image looks like, at a fraction of a blur's CPU).
 */
async function partialImage(finalB64: string, index: number, count: number): Promise<string> {
  const final = sharp(Buffer.from(finalB64, 'base64'));
  const { width = 1024, height = 1024 } = await final.metadata();
  const factor = 2 ** (count - index + 1);
  const coarse = await final
    .resize(Math.max(1, Math.round(width / factor)), Math.max(1, Math.round(height / factor)))
    .toBuffer();
  return (await sharp(coarse).resize(width, height).png().toBuffer()).toString('base64');
}

/**
 * Writes the stream for an accepted call whose final image is `finalB64`.
 *
 * @param headers the rate limit's headers, as on a plain answer
 */
export async function sendEditStream(
  res: ServerResponse,
  call: EditCall,
  finalB64: string,
  script: StreamScript,
  headers: Record<string, string>,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
  const count = Math.min(script.partials ?? call.partialImages, call.partialImages);
  const common = {
    background: call.background === 'transparent' ? 'transparent' : 'opaque',
    created_at: Math.floor(Date.now() / 1000),
    output_format: call.outputFormat,
    quality: call.quality,
    size: call.size === 'auto' ? '1024x1024' : call.size,
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, (script.latencyMs ?? 0) / (count + 1)));
  for (let index = 0; index < count; index += 1) {
    await pause();
    const b64 = await partialImage(finalB64, index, count);
    frame(res, 'image_edit.partial_image', {
      type: 'image_edit.partial_image',
      ...common,
      b64_json: b64,
      partial_image_index: index,
    });
  }
  await pause();
  if (script.error) {
    frame(res, 'error', { type: 'error', error: script.error });
  } else {
    frame(res, 'image_edit.completed', {
      type: 'image_edit.completed',
      ...common,
      b64_json: finalB64,
      usage: editUsage(call, count),
    });
  }
  res.end();
}
