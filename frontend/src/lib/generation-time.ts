/**
 * How long a generation takes, said the one way every screen says it (issue 35 "Money copy from one source"): the
 * wizard's step 3 and step 4, the landing and the sign-in page all read it from here.
 *
 * Only the image provider's line has an estimate (`GET /api/generations/{id}` `queue.etaSeconds`, the wait until the
 * generation starts: functions/domain/provider-queue.ts `etaSeconds`). How long the image service then takes has not
 * been measured in this repo with the real provider (docs/decisions/001-openai-image-model.md "Not measured here"),
 * and the local provider's seconds say nothing about it, so without an estimate no number is stated
 * (docs/product-spec.md §2 and §9).
 */

/** A generation's place in the provider's line, as `GET /api/generations/{id}` gives it (`queue`). */
export interface LinePlace {
  /** 1 = next up, k = k − 1 generations ahead; 0 once it runs. */
  position: number;
  /** The estimated wait until it starts, in seconds. */
  etaSeconds: number;
}

/** What is said where no estimate is known (before the start, on the landing, while it runs): no number. */
export const WITHOUT_ESTIMATE = 'Each headshot appears as soon as it is made';

/**
 * An estimate in whole minutes, rounded up and at least 1: 'about 1 minute', 'about 3 minutes' (the line's ETA is an
 * estimate, so it is never given in seconds).
 *
 * @param etaSeconds seconds, ≥ 0
 */
export function aboutMinutes(etaSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(etaSeconds / 60));
  return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/**
 * The time line of a generation, without a final period: while it waits in the line (position ≥ 1), 'Your headshots
 * start in about N minutes' from the line's ETA; otherwise (no place known, not started, running)
 * {@link WITHOUT_ESTIMATE}.
 */
export function generationTime(place?: LinePlace | null): string {
  if (place && place.position > 0) return `Your headshots start in ${aboutMinutes(place.etaSeconds)}`;
  return WITHOUT_ESTIMATE;
}
