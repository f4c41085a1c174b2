import type OpenAI from 'openai';
import { logger } from '../../common/logger';
import { ProviderInvalidOutputError } from './types';

/**
 * Reads a streamed `POST /v1/images/edits` (`stream: true`): server-sent events `image_edit.partial_image`
 * (`b64_json`, `partial_image_index` 0-based) and one `image_edit.completed` (`b64_json`: the final image), as the
 * API reference's edit streaming events define them (https://developers.openai.com/api/reference/resources/images/
 * edit-streaming-events; the `openai` SDK 7.57.0 `ImageEditStreamEvent`). The final image "may be sent before the
 * full number of partial images", so fewer partials than asked is normal.
 *
 * An `error` event mid-stream is thrown by the SDK as an `APIError` without a status (its `core/streaming.js`), which
 * the caller maps like any refusal (openai-errors.ts). A stream that ends without `image_edit.completed` delivered no
 * image (openai/openai-node#2617: "Image stream ended without a final image").
 *
 * @param onPartialImage called with each partial image's bytes and index, in order; its failure is logged and the
 *   call goes on (a preview is never worth the headshot)
 * @returns the final image's bytes
 * @throws {ProviderInvalidOutputError} the stream ended without a final image
 */
export async function readEditStream(
  stream: AsyncIterable<OpenAI.Images.ImageEditStreamEvent>,
  onPartialImage: (image: Buffer, index: number) => Promise<void>,
): Promise<Buffer> {
  for await (const event of stream) {
    if (event.type === 'image_edit.partial_image') {
      try {
        await onPartialImage(Buffer.from(event.b64_json, 'base64'), event.partial_image_index);
      } catch (error) {
        logger.warn('A partial image could not be kept: the call goes on', {
          index: event.partial_image_index,
          problem: error instanceof Error ? error.message : String(error),
        });
      }
    } else if (event.type === 'image_edit.completed') {
      if (!event.b64_json) break;
      return Buffer.from(event.b64_json, 'base64');
    }
  }
  throw new ProviderInvalidOutputError('OpenAI ended the image stream without a final image');
}
