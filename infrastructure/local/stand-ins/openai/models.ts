import {
  isShutDown,
  openAiImageModel,
  type OpenAiImageModel,
} from '../../../../functions/domain/openai-image-models';
import type { OpenAiErrorAnswer } from './errors';

/*
 * `GET /v1/models/{model}` of the OpenAI stand-in: the Model object of OpenAI's API reference
 * (https://developers.openai.com/api/reference/resources/models/methods/retrieve: `id`, `object: "model"`, `created`
 * in Unix seconds, `owned_by`, and `shutdown_date`, "The date when the model will shut down, or null if not announced",
 * `YYYY-MM-DD`) for the image models of the model table, and OpenAI's 404 `model_not_found` for any other.
 *
 * What is proven and what is inferred:
 * - proven: the shape and the field's meaning (the reference above; the `openai` SDK 7.57.0 `Model.shutdown_date`),
 *   and that OpenAI publishes shutdowns there (https://developers.openai.com/api/docs/deprecations: "check each
 *   model's optional shutdown_date field … also available from the Retrieve a model endpoint");
 * - proven: the 404 body for a model OpenAI does not serve, `{ message: "The model `…` does not exist or you do not
 *   have access to it.", type: "invalid_request_error", param: null, code: "model_not_found" }`
 *   (rd-1-2022/ai-openai-helloworld#9, Shopify/roast#13);
 * - inferred: `created` (the snapshot's date when its id has one, else a fixed placeholder) and `owned_by: "system"`
 *   are not OpenAI's recorded values; a model past its shutdown date answers the same 404 as an unknown one (the
 *   deprecations page says only that the model "no longer accepts requests"); `shutdown_date` is left out when none
 *   is announced (the reference allows a missing field or `null`).
 */

/** The placeholder `created` of a model whose id names no date (2026-01-01T00:00:00Z): inferred, not OpenAI's. */
const PLACEHOLDER_CREATED = 1_767_225_600;

/** OpenAI's Model object, as `GET /v1/models/{model}` answers it. */
export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  shutdown_date?: string | null;
}

/** OpenAI's 404 for a model it does not serve (rd-1-2022/ai-openai-helloworld#9, verbatim but for the id). */
export function modelNotFound(model: string): OpenAiErrorAnswer {
  return {
    status: 404,
    body: {
      error: {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    },
  };
}

function created(model: OpenAiImageModel): number {
  const date = /-(\d{4}-\d{2}-\d{2})$/.exec(model.id)?.[1];
  return date ? Date.parse(`${date}T00:00:00Z`) / 1000 : PLACEHOLDER_CREATED;
}

/**
 * The answer to `GET /v1/models/{model}` on `now`.
 *
 * @param shutdownDates dates a test set per model id (they replace the table's `shutdownDate`; `null`: none announced)
 * @returns 200 with the Model object, or OpenAI's 404 for a model the table does not know or that is shut down
 */
export function retrieveModel(
  id: string,
  now: Date,
  shutdownDates: ReadonlyMap<string, string | null>,
): { status: 200; body: ModelObject } | OpenAiErrorAnswer {
  const model = openAiImageModel(id);
  if (!model) return modelNotFound(id);
  const shutdownDate = shutdownDates.has(id) ? shutdownDates.get(id)! : model.shutdownDate;
  if (isShutDown({ ...model, shutdownDate }, now)) return modelNotFound(id);
  const body: ModelObject = { id: model.id, object: 'model', created: created(model), owned_by: 'system' };
  if (shutdownDate) body.shutdown_date = shutdownDate;
  return { status: 200, body };
}
