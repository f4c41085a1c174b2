import type { GenerationError } from '../../../../functions/domain/generation-errors';
import type { GenerationStatus } from '../../../../functions/domain/generation-status';

/** A generation as its summary lists it (adapters/generations.ts `listGenerationSummaries`). */
export interface GenerationSummary {
  PK: string;
  SK: string;
  id: string;
  status: GenerationStatus;
  createdAt: string;
}

/**
 * A user's data in memory: generations, headshot items, cached photo checks and S3 objects, with the functions
 * "delete my data" removes them with (adapters/generations.ts, headshots/changes.ts, photo-checks.ts,
 * wizard-drafts.ts, user-objects.ts) and the compensation it runs on a generation nothing can finish any more.
 */
export class FakeUserData {
  readonly generations: GenerationSummary[] = [];
  /** Headshot items per user. */
  readonly headshots = new Map<string, number>();
  /** Users with cached photo checks. */
  readonly photoChecks = new Set<string>();
  /** Users with a wizard draft kept with the account (adapters/wizard-drafts.ts). */
  readonly wizardDrafts = new Set<string>();
  /** S3 objects per user (uploads and results). */
  readonly objects = new Map<string, number>();
  /** Generations compensated, with the error they were closed with. */
  readonly compensated: { id: string; error: GenerationError }[] = [];

  /** A user with `headshots` headshot items, `objects` objects, photo checks, a wizard draft, and the generations given. */
  seed(
    sub: string,
    data: { headshots?: number; objects?: number; generations?: Partial<GenerationSummary>[] },
  ) {
    this.headshots.set(sub, data.headshots ?? 0);
    this.objects.set(sub, data.objects ?? 0);
    this.photoChecks.add(sub);
    this.wizardDrafts.add(sub);
    for (const [i, g] of (data.generations ?? []).entries()) {
      const id = g.id ?? `gen-${sub}-${i}`;
      this.generations.push({
        PK: `USER#${sub}`,
        SK: `GENERATION#${id}`,
        id,
        status: 'succeeded',
        createdAt: '2026-01-01T00:00:00.000Z',
        ...g,
      });
    }
  }

  readonly listGenerationSummaries = async (sub: string) =>
    this.generations.filter((g) => g.PK === `USER#${sub}`).map((g) => ({ ...g }));

  readonly compensateGeneration = async (sub: string, id: string, error: GenerationError) => {
    const generation = this.generations.find((g) => g.PK === `USER#${sub}` && g.id === id);
    if (generation) generation.status = 'failed';
    this.compensated.push({ id, error });
  };

  readonly deleteAllHeadshotItems = async (sub: string) => {
    const count = this.headshots.get(sub) ?? 0;
    this.headshots.set(sub, 0);
    return count;
  };

  readonly deleteGenerationItems = async (keys: readonly { PK: string; SK: string }[]) => {
    for (const key of keys) {
      const at = this.generations.findIndex((g) => g.PK === key.PK && g.SK === key.SK);
      if (at >= 0) this.generations.splice(at, 1);
    }
  };

  readonly deletePhotoChecks = async (sub: string) => {
    this.photoChecks.delete(sub);
  };

  readonly deleteWizardDraft = async (sub: string) => {
    this.wizardDrafts.delete(sub);
  };

  readonly deleteUserObjects = async (sub: string) => {
    const count = this.objects.get(sub) ?? 0;
    this.objects.set(sub, 0);
    return count;
  };
}
