import type fc from 'fast-check';
import type { RouteDefinition } from '../../functions/http/routes';
import type { TestUser } from '../helpers/cognito';
import type { RawRequest } from './requests';

/** A route of the route table as the fuzz specs name it: `METHOD /path`. */
export type RouteKey = `${RouteDefinition['method']} ${RouteDefinition['path']}`;
/** The {@link RouteKey} of a route. */
export const keyOf = (r: RouteDefinition): RouteKey => `${r.method} ${r.path}`;

/** What a route's property needs: its users and whatever ids they own. */
export interface FuzzContext {
  user: TestUser;
  other: TestUser;
}

/**
 * A route's request generator (built once its users exist), the answers (`<status>` or `<status> <code>`) the runs
 * must have produced at least once — proof that the generated requests reach the handler's deeper branches and not
 * only its first check — and an optional check after the runs.
 */
export interface FuzzSpec {
  request: (ctx: FuzzContext) => Promise<fc.Arbitrary<RawRequest>>;
  reaches: string[];
  /**
   * Generated requests this route needs at least, when one of its `reaches` takes a rare combination (a body right
   * in every field); the default run's count otherwise.
   */
  minRuns?: number;
  after?: (ctx: FuzzContext) => Promise<void>;
}
