import type { AnalyticsRecord } from '../../../../functions/domain/analytics';
import type { AnalyticsEventName } from '../../../../functions/domain/analytics';

/** A server event as recorded: its name, the user and its properties. */
export interface TrackedEvent {
  name: AnalyticsEventName;
  sub: string;
  props: Record<string, string | number | boolean>;
}

/**
 * A recording analytics sink (adapters/analytics-sink.ts): what the server tracked and the client records stored,
 * in order, so tests can say exactly what was counted.
 */
export class RecordingAnalytics {
  readonly tracked: TrackedEvent[] = [];
  readonly records: AnalyticsRecord[] = [];

  readonly trackServerEvent = async (
    name: AnalyticsEventName,
    sub: string,
    props: Record<string, string | number | boolean> = {},
  ) => {
    this.tracked.push({ name, sub, props });
  };

  readonly recordAnalytics = async (records: AnalyticsRecord[]) => {
    this.records.push(...records);
  };
}
