import type { MarkedMail } from '../../../../functions/adapters/mail-markers';
import { MAIL_ATTEMPTS } from '../../../../functions/domain/mail-attempts';
import type { SendReceiptMailPorts } from '../../../../functions/use-cases/send-account-mails';
import type { FakeLedger } from './ledger';
import { RecordingMailer } from './mailer';
import type { FakePurchases } from './purchases';

/** One marker's state: claimed (sent or being sent), and the failed sends recorded with the last error's name. */
export interface MarkerState {
  claimed: boolean;
  failures: number;
  error?: string;
}

/**
 * The welcome and receipt markers (adapters/mail-markers.ts) in memory, with their rules: a claim needs the item
 * (`exists`), no claim standing and fewer than MAIL_ATTEMPTS failures; a release gives the claim back and counts a
 * failure. Pass its methods as ports; read {@link state} in assertions.
 */
export class FakeMailMarkers {
  readonly markers = new Map<string, MarkerState>();

  /** @param exists whether the item a marker lives on exists (the user item, or the purchase of `ref`) */
  constructor(private readonly exists: (mail: MarkedMail, sub: string, ref: string) => boolean) {}

  /** The state of one marker (a fresh one when never touched). */
  state(mail: MarkedMail, sub: string, ref = ''): MarkerState {
    return this.markers.get(`${mail}|${sub}|${ref}`) ?? { claimed: false, failures: 0 };
  }

  readonly claimMail = async (mail: MarkedMail, sub: string, ref = ''): Promise<boolean> => {
    const state = this.state(mail, sub, ref);
    if (!this.exists(mail, sub, ref) || state.claimed || state.failures >= MAIL_ATTEMPTS) return false;
    this.markers.set(`${mail}|${sub}|${ref}`, { ...state, claimed: true });
    return true;
  };

  readonly releaseMail = async (
    mail: MarkedMail,
    sub: string,
    ref: string,
    errorName: string,
  ): Promise<void> => {
    if (!this.exists(mail, sub, ref)) return;
    const state = this.state(mail, sub, ref);
    this.markers.set(`${mail}|${sub}|${ref}`, {
      claimed: false,
      failures: state.failures + 1,
      error: errorName,
    });
  };
}

/** The links every test's e-mails carry. */
export const SITE_LINKS = {
  dashboardUrl: 'https://headshots.example.com/dashboard',
  generatorUrl: 'https://headshots.example.com/generator',
  supportEmail: 'support@headshots.example.com',
};

/**
 * The account e-mails' ports (use-cases/send-account-mails.ts) over an in-memory ledger and purchases: a recording
 * mailer, markers on the users and purchases that exist, a configured sender.
 */
export function accountMailWorld(ledger: FakeLedger, purchases: FakePurchases) {
  const mailer = new RecordingMailer();
  const markers = new FakeMailMarkers((mail, sub, ref) =>
    mail === 'welcome' ? ledger.users.has(sub) : purchases.purchase(sub, ref) !== undefined,
  );
  const ports: SendReceiptMailPorts = {
    mailConfigured: () => true,
    sendMail: mailer.sendMail,
    claimMail: markers.claimMail,
    releaseMail: markers.releaseMail,
    getUser: ledger.getUser,
    getPurchase: purchases.getPurchase,
    siteLinks: () => SITE_LINKS,
  };
  return { mailer, markers, ports };
}
