import { afterAll } from 'vitest';
import {
  faceModelRunner,
  useFaceModelRunner,
} from '../../functions/adapters/support/vision-models/model-runner';
import { installRecordedFaceModel } from '../helpers/face-model-recording';

// Face-model runs answer from the recording (test/helpers/face-model-recording.ts): the same answers the models give
// for the same pixels; pixels not recorded run the models on this thread, loaded on first use.
const restoreFaceModel = installRecordedFaceModel(useFaceModelRunner, faceModelRunner, async (image) => {
  const { detectFacesHere } = await import('../../functions/adapters/support/vision-models/faces');
  return detectFacesHere(image);
});

// The unit files of a worker share one module graph and one process (vitest.config.ts, `isolate: false`): what a
// file changes in the process's environment or installs here is put back when the file ends, so no file sees its
// neighbour's STAGE, table name or stubbed runner.
const envAtStart = { ...process.env };
afterAll(() => {
  restoreFaceModel();
  for (const key of Object.keys(process.env)) if (!(key in envAtStart)) delete process.env[key];
  Object.assign(process.env, envAtStart);
});
