import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

/**
 * Disposable e-mail addresses get no sign-up bonus (issue 26 "Sign-up abuse"; docs/architecture.md §2): a throwaway
 * inbox per account would otherwise buy 6 free credits — 6 provider calls — per address, for ever.
 *
 * The list is the community-maintained disposable-email-domains blocklist
 * (https://github.com/disposable-email-domains/disposable-email-domains, about 8,900 domains, each added by a
 * reviewed pull request with evidence of the service), shipped on npm as `disposable-email-domains-js` (CC0-1.0:
 * public domain, no conditions on commercial use), pinned exactly in package.json and refreshed by upgrading it.
 */

let blocklist: Set<string> | undefined;

/** The domain part of an address, trimmed and lower-cased, without a trailing dot; '' when there is none. */
function domainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, '');
}

/**
 * Whether `email` is at a disposable e-mail service: its domain, or any parent domain of it (`x.mailinator.com`,
 * since such services hand out subdomains freely), is on the blocklist. Pure: the list is data in the package, read
 * once per execution environment.
 *
 * @example isDisposableAddress('someone@Mailinator.com') === true; isDisposableAddress('jane@gmail.com') === false
 */
export function isDisposableAddress(email: string): boolean {
  blocklist ??= disposableEmailBlocklistSet();
  const labels = domainOf(email).split('.');
  // Parents down to the registrable part: "a.b.example.com" checks itself, "b.example.com" and "example.com".
  for (let i = 0; i < labels.length - 1; i++) {
    if (blocklist.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}
