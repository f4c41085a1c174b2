import { openAiImageModel } from '../domain/openai-image-models';
import { takesHighResolution } from '../domain/headshot-variants';
import { imageProviderSettings } from './image-provider';

/**
 * Whether this deployment can make high-resolution headshots (docs/decisions/009-high-resolution.md): the offline
 * `local` provider always can; `openai` when its configured model takes the high-resolution canvas (the gpt-image-2
 * family's flexible sizes). Every function has OPENAI_IMAGE_MODEL, so the routes that offer and sell the option see
 * the model the slots will call.
 */
export function highResolutionAvailable(): boolean {
  const config = imageProviderSettings();
  return (
    config.IMAGE_PROVIDER === 'local' || takesHighResolution(openAiImageModel(config.OPENAI_IMAGE_MODEL))
  );
}
