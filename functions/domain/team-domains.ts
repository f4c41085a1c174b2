import { isDisposableAddress } from './disposable-addresses';
import { TeamDomainNotAllowedError } from './team-errors';
import { DOMAIN_PATTERN, MAX_TEAM_DOMAINS, normaliseDomain } from './teams';

/**
 * A team's allowed e-mail domains (issue 37 §1, §4; docs/teams.md "Invitations"): which are refused. Pure: no I/O,
 * but not for the browser bundle (the disposable-address list is large); how domains are written and matched is in
 * domain/teams.ts.
 */

/**
 * Public e-mail services where anyone can open an address, so a team cannot be limited to them (decision 029): the
 * largest consumer mail providers' own domains. Not a complete list (no list is; the packaged ones either fetch at
 * install time or lack a declared dependency, decision 029): a domain missed here only makes a team's own limit
 * weaker, it grants nothing — seats are still paid for and links still capped. Disposable services are refused too
 * ({@link isDisposableAddress}).
 */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'zoho.com',
  'qq.com',
  '163.com',
  '126.com',
  'naver.com',
  'fastmail.com',
  'tutanota.com',
]);

/** Whether `domain` (normalised) is a public or disposable mail service; `hotmail.*`, `yahoo.*`, `outlook.*` all are. */
export function isPublicMailDomain(domain: string): boolean {
  if (PUBLIC_MAIL_DOMAINS.has(domain)) return true;
  if (/^(hotmail|outlook|yahoo|live|gmx)\.[a-z.]+$/.test(domain)) return true;
  return isDisposableAddress(`x@${domain}`);
}

/**
 * The allowed domains as stored: normalised, distinct, in the order given.
 *
 * @throws {TeamDomainNotAllowedError} for a public or disposable mail service's domain.
 * @throws {RangeError} for a name that is not a domain or more than {@link MAX_TEAM_DOMAINS} (the contract refuses
 *   both first, with the customer's words).
 */
export function allowedDomains(domains: readonly string[]): string[] {
  const out = [...new Set(domains.map(normaliseDomain))];
  if (out.length > MAX_TEAM_DOMAINS) throw new RangeError(`At most ${MAX_TEAM_DOMAINS} domains`);
  for (const domain of out) {
    if (!DOMAIN_PATTERN.test(domain)) throw new RangeError(`Not a domain: ${domain}`);
    if (isPublicMailDomain(domain)) throw new TeamDomainNotAllowedError(domain);
  }
  return out;
}
