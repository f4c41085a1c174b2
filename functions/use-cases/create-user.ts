import type { UserRecord } from '../adapters/ledger';
import { ensureUser } from '../adapters/user-creation';

/** What creating a user needs: the user item's creation with its free credits. */
export interface CreateUserPorts {
  ensureUser: typeof ensureUser;
}

const adapters: CreateUserPorts = { ensureUser };

/**
 * A confirmed sign-up becomes a user (the Cognito post-confirmation trigger): the user item with the free credits,
 * exactly once — the same idempotent creation `GET /api/me` and a generation's start make, so no path misses it
 * and no race doubles it (docs/architecture.md §2). The bonus is once per person and never for a disposable address
 * (adapters/user-creation.ts).
 *
 * @param email the address Cognito confirmed
 * @returns the user, as created now or earlier
 * @throws {Error} when the sign-up bonus pepper is not configured (nothing is written)
 */
export async function createUser(
  sub: string,
  email: string,
  ports: CreateUserPorts = adapters,
): Promise<UserRecord> {
  return ports.ensureUser(sub, email);
}
