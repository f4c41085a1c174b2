import * as z from 'zod/mini';
import { DEFAULT_DEADLINE_MINUTES } from '../domain/generation-deadline';
import { defineSettings } from './settings';
import { optionalString, positiveInt } from './fields';

/** Starting and bounding a generation (docs/architecture.md, workflow). */
const generation = defineSettings(
  z.object({
    /** The generation state machine; the CDK stack sets it where a generation is started. */
    STATE_MACHINE_ARN: optionalString,
    /** Map concurrency of the GenerateImages state: 1-6 slots at once (default 6, the six headshots). */
    GENERATION_MAX_CONCURRENCY: z.pipe(positiveInt(6), z.number().check(z.lte(6))),
    /**
     * How long a generation may wait in total, in minutes, from its start (default 30): no slot is admitted to the
     * provider after it, so a slot still throttled then is refunded. The state machine's timeout follows from it
     * (domain/generation-deadline.ts). May be fractional (tests).
     */
    GENERATION_DEADLINE_MINUTES: z._default(z.coerce.number().check(z.positive()), DEFAULT_DEADLINE_MINUTES),
  }),
);

/** The state machine, its concurrency and the generation deadline. */
export type GenerationSettings = ReturnType<typeof generation.load>;
/** The generation settings of this execution environment (parsed once per cold start). */
export const generationSettings = generation.load;
/** Parses an environment's generation settings. @throws {ConfigError} naming each bad variable. */
export const parseGenerationSettings = generation.parse;
