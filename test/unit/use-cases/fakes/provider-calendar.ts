import {
  ProviderModelNotFoundError,
  type CalendarSettings,
  type ProviderModelInfo,
} from '../../../../functions/adapters/provider-calendar';
import type {
  CalendarReading,
  CheckProviderCalendarPorts,
} from '../../../../functions/use-cases/check-provider-calendar';

/**
 * OpenAI's model calendar in memory, with a recording metrics publisher: `shutdownDates` is what `GET /v1/models`
 * answers per model (absent id: 404 `model_not_found`, as adapters/provider-calendar.ts throws it), `failWith` makes
 * every read fail (a wrong key, OpenAI down), `published` keeps every reading and `reads` every model asked.
 */
export class FakeProviderCalendar implements CheckProviderCalendarPorts {
  configured: CalendarSettings = { provider: 'openai', model: 'gpt-image-2.6-sunburst', hasApiKey: true };
  readonly shutdownDates = new Map<string, string | null>([['gpt-image-2.6-sunburst', null]]);
  failWith: Error | undefined;
  readonly reads: string[] = [];
  readonly published: CalendarReading[] = [];

  readonly settings = (): CalendarSettings => this.configured;

  readonly retrieveModel = async (model: string): Promise<ProviderModelInfo> => {
    this.reads.push(model);
    await Promise.resolve();
    if (this.failWith) throw this.failWith;
    if (!this.shutdownDates.has(model)) {
      throw new ProviderModelNotFoundError(
        model,
        `404 The model \`${model}\` does not exist or you do not have access to it.`,
      );
    }
    return { id: model, shutdownDate: this.shutdownDates.get(model) ?? null };
  };

  readonly publish = (reading: CalendarReading): void => {
    this.published.push(reading);
  };
}
