import { getGeneration } from '../adapters/generations';
import { getUser } from '../adapters/ledger';
import { ensureUser } from '../adapters/user-creation';
import { highResolutionAvailable } from '../config/high-resolution';
import type { ActiveGeneration, Me } from '../contracts';
import { AccountDeletedError, NoEmailInTokenError } from '../domain/errors';
import { isTerminal, type GenerationStatus } from '../domain/generation-status';
import { HEADSHOTS_PER_GENERATION } from '../domain/slots';
import type { EditOrder } from '../domain/edits';

/** The fields of a generation the caller's account view shows while it is in flight. */
interface GenerationInFlight {
  id: string;
  status: GenerationStatus;
  /** 0-100. */
  progress: number;
  slotCount?: number;
  regeneratedFrom?: string;
  /** The edit a one-slot generation makes (domain/edits.ts). */
  edit?: EditOrder;
  createdAt: string;
}

/** What the account view needs from the outside world: the user item (created once), the newest generation. */
export interface GetMePorts {
  getUser: typeof getUser;
  /** Creates the user with the free credits, once (adapters/user-creation.ts). */
  ensureUser: typeof ensureUser;
  getGeneration: (sub: string, id: string) => Promise<GenerationInFlight | undefined>;
}

const adapters: GetMePorts = { getUser, ensureUser, getGeneration };

/**
 * The caller's account, `GET /api/me` (docs/architecture.md §3): balance, what is owed, the sign-up bonus's fate,
 * the ready e-mail preference, whether high resolution is offered, and the generation still in flight. Creates the
 * user with the free credits on the first call if the Cognito post-confirmation trigger has not already
 * (docs/architecture.md §2); only an ID token carries the e-mail to create it with.
 *
 * @param caller the token's `sub`, and its e-mail (an ID token's; an access token carries none)
 * @throws {AccountDeletedError} for a token still valid after its account was deleted; {NoEmailInTokenError} when
 *   the user does not exist yet and the token carries no e-mail
 */
export async function getMe(
  caller: { sub: string; email: string | undefined },
  ports: GetMePorts = adapters,
): Promise<Me> {
  let user = await ports.getUser(caller.sub);
  if (!user) {
    if (!caller.email) throw new NoEmailInTokenError();
    user = await ports.ensureUser(caller.sub, caller.email);
  }
  if (user.deletedAt) throw new AccountDeletedError();
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    credits: user.credits,
    signupBonus: user.signupBonus,
    creditsOwed: user.creditsOwed,
    emailWhenReady: user.emailWhenReady,
    highResolution: highResolutionAvailable(),
    createdAt: user.createdAt,
    activeGeneration: await activeGeneration(caller.sub, user.lastGenerationId, ports),
  };
}

/**
 * The caller's generation still in flight, from the user item's `lastGenerationId` (at most one is in flight per
 * user: docs/architecture.md §2), or null when it ended or there is none. One strongly consistent GetItem, and only
 * for a user who ever generated.
 */
async function activeGeneration(
  sub: string,
  lastGenerationId: string | undefined,
  ports: Pick<GetMePorts, 'getGeneration'>,
): Promise<ActiveGeneration | null> {
  if (!lastGenerationId) return null;
  const generation = await ports.getGeneration(sub, lastGenerationId);
  if (!generation || isTerminal(generation.status)) return null;
  return {
    id: generation.id,
    status: generation.status === 'queued' ? 'queued' : 'running',
    progress: generation.progress,
    headshotsExpected: generation.slotCount ?? HEADSHOTS_PER_GENERATION,
    regeneratedFrom: generation.regeneratedFrom ?? null,
    edit: generation.edit ? { ...generation.edit.request, headshotId: generation.edit.headshotId } : null,
    createdAt: generation.createdAt,
  };
}
