import type { UserRecord } from '../adapters/ledger';
import { ensureUser } from '../adapters/user-creation';
import { sendWelcomeMail, type AccountMailOutcome } from './send-account-mails';

/** What creating a user needs: the user item's creation with its free credits, and the welcome e-mail. */
export interface CreateUserPorts {
  ensureUser: typeof ensureUser;
  /** The welcome e-mail, once per account (use-cases/send-account-mails.ts); never throws. */
  sendWelcomeMail: (sub: string) => Promise<AccountMailOutcome>;
}

const adapters: CreateUserPorts = { ensureUser, sendWelcomeMail: (sub) => sendWelcomeMail(sub) };

/**
 * A confirmed sign-up becomes a user (the Cognito post-confirmation trigger): the user item with the free credits,
 * exactly once — the same idempotent creation `GET /api/me` and a generation's start make, so no path misses it
 * and no race doubles it (docs/architecture.md §2). The bonus is once per person and never for a disposable address
 * (adapters/user-creation.ts). Then the welcome e-mail, once per account (its marker on the user item): Cognito runs
 * this trigger once per confirmed sign-up and again only when a run failed or timed out, so the marker is what
 * keeps a retried run from sending twice. A mail failure is logged and leaves the sign-up confirmed.
 *
 * @param email the address Cognito confirmed
 * @returns the user, as created now or earlier
 * @throws {Error} when the sign-up bonus pepper is not configured (nothing is written, nothing sent)
 */
export async function createUser(
  sub: string,
  email: string,
  ports: CreateUserPorts = adapters,
): Promise<UserRecord> {
  const user = await ports.ensureUser(sub, email);
  await ports.sendWelcomeMail(sub);
  return user;
}
