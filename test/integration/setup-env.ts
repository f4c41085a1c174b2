import { inject } from 'vitest';
import {
  faceModelRunner,
  useFaceModelRunner,
} from '../../functions/adapters/support/vision-models/model-runner';
import { installRecordedFaceModel } from '../helpers/face-model-recording';

// Handlers parse their configuration from process.env at their first import (the cold start), so the emulators'
// endpoints must be in place before any test file imports one.
Object.assign(process.env, inject('localStack').env);

// Handlers a test file runs in its own process (its generation stack) answer face-model runs from the recording
// (test/helpers/face-model-recording.ts); pixels not recorded run the models on this thread, loaded on first use.
installRecordedFaceModel(useFaceModelRunner, faceModelRunner, async (image) => {
  const { detectFacesHere } = await import('../../functions/adapters/support/vision-models/faces');
  return detectFacesHere(image);
});
