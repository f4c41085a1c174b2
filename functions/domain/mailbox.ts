import { domainToASCII } from 'node:url';

/*
 * Which e-mail addresses reach one mailbox, so the sign-up bonus (domain/signup-bonus.ts) is keyed by the mailbox
 * and not by one of its spellings (docs/decisions/020-signup-cost.md). Every rule below folds spellings a large
 * provider documents as the same mailbox; an address at any other domain keeps its local part apart from case and a
 * `+tag`.
 */

/**
 * One provider's folding: its domains (the first is the one they are all written as, because every one of them
 * reaches the same mailbox for one local part), whether dots in the local part are ignored, and the separators of
 * its sub-addresses beyond the `+` every domain gets.
 */
interface Provider {
  domains: readonly string[];
  ignoresDots?: boolean;
  tagSeparators?: readonly string[];
  subdomainAddressing?: boolean;
}

/**
 * The large providers' documented rules, each with its source:
 * - Gmail ignores dots and takes `+tag`; googlemail.com is the same mailbox ("Dots don't matter in Gmail addresses",
 *   https://support.google.com/mail/answer/7436150);
 * - iCloud: an account's @me.com and @mac.com addresses are its @icloud.com address ("About your @icloud.com,
 *   @me.com, and @mac.com email addresses", https://support.apple.com/en-us/118230), and iCloud Mail takes `+tag`;
 * - Proton: the free personal addresses of one account are name@proton.me / @protonmail.com / @protonmail.ch /
 *   @pm.me, and every Proton address takes `+tag` ("Types of email addresses and aliases",
 *   https://proton.me/support/addresses-and-aliases);
 * - Fastmail: `+tag`, and subdomain addressing, `anything@name.fastmail.com` for `name@fastmail.com` ("Plus
 *   addressing and subdomain addressing", https://www.fastmail.help/hc/en-us/articles/360060591053);
 * - Yahoo: disposable addresses `basename-keyword@yahoo.com` (Yahoo Mail "AddressGuard",
 *   http://help.yahoo.com/help/uk/bt/tutorials/mail/addressguard2.html); a Yahoo name itself holds letters, digits,
 *   `_` and one `.`, never `-`, so the first `-` starts the keyword;
 * - Outlook.com / Hotmail / Live take `+tag` ("Plus addressing in Outlook.com",
 *   https://support.microsoft.com/en-us/office/plus-addressing-in-outlook-com-a9d5fc4c-d8f1-4ac7-9b6b-3dafb1dbbb0b):
 *   the rule every domain gets; their domains are separate mailboxes (jane@hotmail.com is not jane@outlook.com).
 */
const PROVIDERS: readonly Provider[] = [
  { domains: ['gmail.com', 'googlemail.com'], ignoresDots: true },
  { domains: ['icloud.com', 'me.com', 'mac.com'] },
  { domains: ['protonmail.com', 'proton.me', 'protonmail.ch', 'pm.me'] },
  { domains: ['fastmail.com', 'fastmail.fm'], subdomainAddressing: true },
  {
    domains: [
      'yahoo.com',
      'yahoo.co.uk',
      'yahoo.fr',
      'yahoo.de',
      'yahoo.es',
      'yahoo.it',
      'yahoo.ca',
      'yahoo.com.au',
    ],
    tagSeparators: ['-'],
  },
];

const byDomain = new Map(
  PROVIDERS.flatMap((provider) => provider.domains.map((d) => [d, provider] as const)),
);

/**
 * The domain as DNS knows it: lower case, trailing dots dropped (`gmail.com.` is the fully-qualified spelling of
 * `gmail.com`, RFC 1034 §3.1), a Unicode name in its ASCII (punycode) form as Node's WHATWG URL parser writes it
 * (`url.domainToASCII`, https://nodejs.org/api/url.html#urldomaintoasciidomain); a name that is not a valid domain is
 * kept lower-cased.
 */
export function canonicalDomain(domain: string): string {
  const bare = domain.trim().toLowerCase().replace(/\.+$/, '');
  return domainToASCII(bare) || bare;
}

/** The local part up to the first of `separators` (a separator in first place is part of the name). */
function untagged(local: string, separators: readonly string[]): string {
  const cut = Math.min(...separators.map((s) => local.indexOf(s)).filter((i) => i > 0));
  return Number.isFinite(cut) ? local.slice(0, cut) : local;
}

/**
 * A Fastmail subdomain address read as the mailbox it reaches: `shop@jane.fastmail.com` is `jane+shop@fastmail.com`.
 * `undefined` when `domain` is no subdomain of a Fastmail domain.
 */
function fastmailSubdomain(local: string, domain: string): { local: string; domain: string } | undefined {
  for (const provider of PROVIDERS.filter((p) => p.subdomainAddressing)) {
    for (const base of provider.domains) {
      const name = domain.endsWith(`.${base}`) ? domain.slice(0, -base.length - 1) : '';
      if (name && !name.includes('.')) return { local: `${name}+${local}`, domain: base };
    }
  }
  return undefined;
}

/**
 * The address a mailbox's spellings reduce to: trimmed, Unicode NFC, lower-cased; the domain as {@link canonicalDomain}
 * writes it; a `+tag` removed at every domain; then each large provider's rules ({@link PROVIDERS}): its domains
 * written as one, its other sub-address separators and, on Gmail, dots. An address without a local part is returned
 * trimmed and lower-cased.
 *
 * @example normaliseEmail(' Jane.Doe+linkedin@GoogleMail.com. ') === 'janedoe@gmail.com'
 * @example normaliseEmail('jane-shop@yahoo.com') === 'jane@yahoo.com'
 * @example normaliseEmail('shop@jane.fastmail.com') === 'jane@fastmail.com'
 */
export function normaliseEmail(email: string): string {
  const lower = email.trim().normalize('NFC').toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  let local = lower.slice(0, at);
  let domain = canonicalDomain(lower.slice(at + 1));
  const sub = fastmailSubdomain(local, domain);
  if (sub) ({ local, domain } = sub);
  const provider = byDomain.get(domain);
  local = untagged(local, ['+', ...(provider?.tagSeparators ?? [])]);
  if (provider?.ignoresDots) local = local.replaceAll('.', '');
  return `${local}@${provider?.domains[0] ?? domain}`;
}

/**
 * The normalisation the bonus markers were keyed by before this module (trimmed, lower-cased, `+tag` dropped, Gmail
 * dots and googlemail.com folded), kept so a person who claimed the bonus under it is still found
 * (domain/signup-bonus.ts `previousBonusKey`). Never used for a new marker.
 */
export function firstNormalisation(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
