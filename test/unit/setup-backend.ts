import {
  faceModelRunner,
  useFaceModelRunner,
} from '../../functions/adapters/support/vision-models/model-runner';
import { installRecordedFaceModel } from '../helpers/face-model-recording';

// Face-model runs answer from the recording (test/helpers/face-model-recording.ts): the same answers the models give
// for the same pixels; pixels not recorded run the models on this thread, loaded on first use.
installRecordedFaceModel(useFaceModelRunner, faceModelRunner, async (image) => {
  const { detectFacesHere } = await import('../../functions/adapters/support/vision-models/faces');
  return detectFacesHere(image);
});
