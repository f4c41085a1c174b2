import * as z from 'zod/mini';
import { DEFAULT_LIKENESS_THRESHOLD } from '../domain/likeness';
import { defineSettings } from './settings';

/** The likeness gate of delivered headshots (docs/architecture.md, workflow). */
const likeness = defineSettings(
  z.object({
    /**
     * Minimum likeness (0-100) of a delivered headshot to the customer's reference photos: under it, or without a
     * face, the slot is generated once more, then refunded (functions/domain/likeness.ts for the calibration, on
     * photos and on retouched faces: docs/decisions/002-identity-model.md, 026-likeness-under-retouching.md).
     */
    LIKENESS_THRESHOLD: z._default(
      z.coerce.number().check(z.int(), z.gte(0), z.lte(100)),
      DEFAULT_LIKENESS_THRESHOLD,
    ),
  }),
);

/** The likeness threshold. */
export type LikenessSettings = ReturnType<typeof likeness.load>;
/** The likeness settings of this execution environment (parsed once per cold start). */
export const likenessSettings = likeness.load;
/** Parses an environment's likeness settings. @throws {ConfigError} naming each bad variable. */
export const parseLikenessSettings = likeness.parse;
