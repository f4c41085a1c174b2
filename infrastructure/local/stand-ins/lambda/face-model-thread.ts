import { parentPort } from 'node:worker_threads';
import { detectFacesHere } from '../../../../functions/adapters/support/vision-models/faces';
import type { RgbImage } from '../../../../functions/adapters/support/pixels';

/*
 * One face-model thread of the local stack (./face-model-threads.ts): the same detection code a Lambda execution
 * environment runs on its own thread (functions/adapters/vision/faces.ts), its own Human instance loaded on first use.
 */

/** A request from the pool: the image's pixels arrive as a plain Uint8Array (structured clone of a Buffer). */
interface Job {
  id: number;
  image: { data: Uint8Array; width: number; height: number };
}

parentPort?.on('message', (job: Job) => {
  const { data, width, height } = job.image;
  const image: RgbImage = { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), width, height };
  detectFacesHere(image).then(
    (faces) => parentPort?.postMessage({ id: job.id, faces }),
    (error: unknown) =>
      parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
