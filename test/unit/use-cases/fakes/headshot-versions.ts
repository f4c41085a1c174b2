import type { HeadshotRecord } from '../../../../functions/adapters/headshots/records';
import type {
  HeadshotVersionRecord,
  NewHeadshotVersion,
} from '../../../../functions/adapters/headshots/versions';
import { GenerationClosedError } from '../../../../functions/domain/generation-errors';
import { storedVariants, type VersionFiles } from '../../../../functions/adapters/headshots/urls';
import { HeadshotDeletedError } from '../../../../functions/domain/headshot-versions';
import type { HeadshotVariant } from '../../../../functions/domain/headshot-variants';
import type { FakeGenerations } from './generations';

/** The live root headshot item of a version (mutable: its `versionCount` is bumped), or `undefined` when gone. */
export type RootOf = (sub: string, headshotId: string) => HeadshotRecord | undefined;

/**
 * A user's headshot versions in memory (adapters/headshots/versions.ts) with the adapter's rules: a save needs the
 * root headshot (else `HeadshotDeletedError`) and, given {@link FakeGenerations}, an open generation whose slot is
 * empty (else `GenerationClosedError`; a saved slot returns its version), and bumps the root's `versionCount`; a
 * deletion takes the files (recorded in {@link deletedKeys}) and the count down. Ids sort like ULIDs. URLs say which
 * key they sign: `https://results.test/<key>?inline|attachment`.
 */
export class FakeHeadshotVersions {
  readonly records = new Map<string, HeadshotVersionRecord>();
  /** Results-bucket keys deleted, in order. */
  readonly deletedKeys: string[] = [];
  private sequence = 0;

  constructor(
    private readonly rootOf: RootOf,
    private readonly generations?: FakeGenerations,
  ) {}

  /** A version of `sub`'s headshot `headshotId` (its files under the edit generation `g-<id>`). */
  seed(sub: string, headshotId: string, id: string, fields: Partial<HeadshotVersionRecord> = {}) {
    const record: HeadshotVersionRecord = {
      id,
      headshotId,
      userId: sub,
      generationId: `g-${id}`,
      slot: 0,
      edit: { kind: 'retouch', strength: 'natural' },
      transparent: false,
      imageKey: `results/${sub}/g-${id}/0.jpg`,
      thumbnailKey: `results/${sub}/g-${id}/thumbnails/0.webp`,
      creditsUsed: 1,
      createdAt: '2026-01-02T00:00:00.000Z',
      ...fields,
    };
    this.records.set(this.key(sub, headshotId, id), record);
    const root = this.rootOf(sub, headshotId);
    if (root) root.versionCount = (root.versionCount ?? 0) + 1;
    return record;
  }

  private key(sub: string, headshotId: string, id: string) {
    return `${sub}|${headshotId}|${id}`;
  }

  readonly saveHeadshotVersion = async (input: NewHeadshotVersion) => {
    const generation = this.generations?.stored(input.sub, input.generationId);
    const existing = generation?.slots[String(input.slot)];
    if (existing) return { versionId: existing, saved: false };
    if (generation?.closedAt) throw new GenerationClosedError(`Generation ${input.generationId} is closed`);
    if (!this.rootOf(input.sub, input.headshotId)) {
      throw new HeadshotDeletedError(`Headshot ${input.headshotId} was deleted`);
    }
    const versionId = `version-${String(++this.sequence).padStart(4, '0')}`;
    const { sub, creditsUsed, ...fields } = input;
    this.seed(sub, input.headshotId, versionId, { ...fields, creditsUsed: creditsUsed ?? 1 });
    if (generation) {
      generation.slots = { ...generation.slots, [String(input.slot)]: versionId };
      generation.imagesSaved += 1;
      generation.progress += 8;
    }
    return { versionId, saved: true };
  };

  readonly getHeadshotVersion = async (sub: string, headshotId: string, versionId: string) => {
    const record = this.records.get(this.key(sub, headshotId, versionId));
    return record ? structuredClone(record) : undefined;
  };

  readonly listHeadshotVersions = async (sub: string, headshotId: string) =>
    [...this.records.values()]
      .filter((v) => v.userId === sub && v.headshotId === headshotId)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((v) => structuredClone(v));

  readonly deleteHeadshotVersion = async (sub: string, headshotId: string, versionId: string) => {
    const record = this.records.get(this.key(sub, headshotId, versionId));
    if (!record) return false;
    this.deletedKeys.push(...filesOf(record));
    this.records.delete(this.key(sub, headshotId, versionId));
    const root = this.rootOf(sub, headshotId);
    if (root && (root.versionCount ?? 0) > 0) root.versionCount = (root.versionCount ?? 0) - 1;
    return true;
  };

  readonly versionUrls = async (version: VersionFiles, fileNameOf: (variant: HeadshotVariant) => string) => ({
    thumbnailUrl: urlOf(version.thumbnailKey, 'inline'),
    imageUrl: urlOf(version.imageKey, 'inline'),
    variants: storedVariants(version).map(({ variant, key, width, height }) => ({
      variant,
      width,
      height,
      fileName: fileNameOf(variant),
      url: urlOf(key, 'inline'),
    })),
  });

  readonly presignVersionDownload = async (
    version: VersionFiles,
    variant: HeadshotVariant,
    _fileName: string,
  ) => {
    const stored = storedVariants(version).find((v) => v.variant === variant);
    return stored ? urlOf(stored.key, 'attachment') : undefined;
  };

  readonly deleteHeadshotVersions = async (sub: string, headshotId: string) => {
    const versions = await this.listHeadshotVersions(sub, headshotId);
    for (const version of versions) {
      this.deletedKeys.push(...filesOf(version));
      this.records.delete(this.key(sub, headshotId, version.id));
    }
    return versions.length;
  };
}

/** A test URL for a results-bucket key, as fakes/headshots.ts signs them. */
const urlOf = (key: string, kind: string) => `https://results.test/${key}?${kind}`;

/** A version's files: square, thumbnail, and the portrait and original when it has them. */
function filesOf(version: HeadshotVersionRecord): string[] {
  const variants = version.variants ? [version.variants.portrait.key, version.variants.original.key] : [];
  return [version.imageKey, version.thumbnailKey, ...variants];
}
