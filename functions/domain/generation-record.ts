import type { GenerationError } from './generation-errors';
import type { GenerationStage, GenerationStatus } from './generation-status';
import type { Resolution } from './headshot-variants';
import type { Background, Style } from './styles';
import type { Outfit } from './outfits';
import type { PhotoProblem } from './photos';
import type { LikenessStop } from './likeness-cap';
import type { EditOrder } from './edits';
import type { GenerationPayer } from './team-seats';

/**
 * A generation as it is stored (docs/architecture.md §2, the generation item): the entity the API, the workflow and
 * the compensations read, and adapters/generations.ts writes. Pure: a type only.
 */

/** The generation item as the code sees it (without PK/SK). Timestamps are ISO 8601 UTC. */
export interface GenerationRecord {
  id: string;
  userId: string;
  status: GenerationStatus;
  stage: GenerationStage;
  /** 0-100. */
  progress: number;
  style: Style;
  background: Background;
  /** What the customer chose to wear (domain/outfits.ts); absent on items made before outfits: their own clothing. */
  outfit?: Outfit;
  /**
   * The slot variation a one-slot generation uses (domain/prompts.ts `slotVariation`): a regeneration's is the
   * regenerated headshot's; absent: each slot uses its own.
   */
  variation?: number;
  /** The upload keys the user chose, in their order. */
  referenceKeys: string[];
  /** Head-and-shoulders crops of the best photos (≤ 3, best first), written by PrepareReferences. */
  references?: string[];
  /** The customer's face descriptor (mean of the references'), base64 float32: what likeness is measured against. */
  referenceDescriptor?: string;
  /** The model of `referenceDescriptor` (domain/likeness.ts `DESCRIPTOR_MODEL`; absent: Human's faceres, legacy). */
  referenceDescriptorModel?: string;
  /** Photos PrepareReferences refused, by index in `referenceKeys`. */
  rejectedPhotos?: { index: number; problem: PhotoProblem }[];
  /** Credits spent when the generation was created (6, or 1 for a regeneration). */
  creditsReserved: number;
  /**
   * Whose ledger paid it and takes back what it does not deliver (domain/team-seats.ts): `{ team }` for a team-paid
   * generation (docs/teams.md "Money"); absent: the customer's own.
   */
  payer?: GenerationPayer;
  /**
   * A team generation's custom backdrop colour (`#rrggbb`, with `background` `studio`: domain/team-look.ts); BuildPrompt
   * asks for a plain backdrop of that colour. Absent: the preset `background`.
   */
  backgroundColour?: string;
  /** Slots the workflow fills: absent (6) for a generation, 1 for "Regenerate (1 credit)". */
  slotCount?: number;
  /**
   * The canvas its slots ask for (domain/headshot-variants.ts): `high` when the customer chose the high-resolution
   * option (and paid its credits per slot); absent: `standard`.
   */
  resolution?: Resolution;
  /** The headshot a one-slot generation regenerates (shown beside it). */
  regeneratedFrom?: string;
  /**
   * The edit a one-slot generation makes (domain/edits.ts, issue 36): CallProvider sends the provider the headshot
   * (or the version) it names, with the edit prompt, and FinishHeadshot saves a version of it. Absent: not an edit.
   */
  edit?: EditOrder;
  /** Credits given back so far (one per slot without a headshot, once closed). */
  creditsRefunded: number;
  /** Headshots saved. */
  imagesSaved: number;
  /** Slot number (as a string key) → headshot id, for every slot that saved its headshot. */
  slots: Record<string, string>;
  error?: GenerationError;
  executionArn?: string;
  /**
   * The position in the provider queue recorded when the generation was enqueued (adapters/provider-queue/positions.ts),
   * with its order key (the API recomputes the position from it); `at` is when.
   */
  queue?: { position: number; etaSeconds: number; at: string; orderKey?: number };
  /** When the provider first admitted one of its slots. */
  admittedAt?: string;
  /** The identity of its reference photos (domain/likeness-cap.ts `referenceSetHash`); absent on older items. */
  referenceSetHash?: string;
  /** The caller's `safety_identifier` for its provider calls (domain/provider-refusals.ts); absent on older items. */
  safetyIdentifier?: string;
  /** Set when its provider calls stopped: photos failing likeness, the day's calls used up, or refusals. */
  likenessStop?: LikenessStop;
  /**
   * Its headshots refused by the likeness check, `<slot>.<attempt>` (the item's string set, written by
   * adapters/likeness-cap.ts); absent when none was.
   */
  likenessRejections?: ReadonlySet<string>;
  /** Set once, when the generation stops accepting headshots (see the module comment). */
  closedAt?: string;
  completedAt?: string;
  createdAt: string;
  updatedAt: string;
}
