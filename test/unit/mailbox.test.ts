import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalDomain, firstNormalisation, normaliseEmail } from '../../functions/domain/mailbox';
import { bonusKey, previousBonusKey } from '../../functions/domain/signup-bonus';

const PEPPER = 'unit-test-pepper';
const sameMailbox = (...emails: string[]) => new Set(emails.map(normaliseEmail)).size === 1;

describe('the domain as DNS knows it', () => {
  it('drops trailing dots and case', () => {
    expect(canonicalDomain('Gmail.COM.')).toBe('gmail.com');
    expect(canonicalDomain('example.org..')).toBe('example.org');
    expect(normaliseEmail('jane.doe@gmail.com.')).toBe(normaliseEmail('jane.doe@gmail.com'));
    expect(bonusKey('jane.doe@gmail.com.', PEPPER)).toBe(bonusKey('janedoe@gmail.com', PEPPER));
  });

  it('writes a Unicode domain in its punycode form, so both spellings are one key', () => {
    expect(canonicalDomain('Bücher.example')).toBe('xn--bcher-kva.example');
    expect(sameMailbox('anna@bücher.example', 'anna@xn--bcher-kva.example', 'Anna@BÜCHER.example.')).toBe(
      true,
    );
  });

  it('keeps a name that is no valid domain as written, lower-cased', () => {
    expect(canonicalDomain('not a domain')).toBe('not a domain');
  });
});

describe('each large provider documents its spellings of one mailbox', () => {
  it('Gmail: dots, +tag and googlemail.com', () => {
    expect(sameMailbox('j.a.n.e+x@googlemail.com', 'jane@gmail.com', 'JANE@GMAIL.COM.')).toBe(true);
  });

  it('Outlook, Hotmail, Live: +tag, each domain its own mailbox, dots kept', () => {
    expect(sameMailbox('jane+shop@outlook.com', 'jane@outlook.com')).toBe(true);
    expect(sameMailbox('jane+shop@hotmail.com', 'jane@hotmail.com')).toBe(true);
    expect(sameMailbox('jane@hotmail.com', 'jane@outlook.com')).toBe(false);
    expect(sameMailbox('jane.doe@outlook.com', 'janedoe@outlook.com')).toBe(false);
  });

  it('iCloud: +tag, and me.com and mac.com are icloud.com', () => {
    expect(normaliseEmail('Jane+x@me.com')).toBe('jane@icloud.com');
    expect(sameMailbox('jane@mac.com', 'jane@icloud.com', 'jane+a@icloud.com')).toBe(true);
  });

  it('Proton: +tag, and proton.me, protonmail.ch and pm.me are protonmail.com', () => {
    expect(sameMailbox('jane+x@proton.me', 'jane@protonmail.com', 'jane@pm.me', 'jane@protonmail.ch')).toBe(
      true,
    );
    expect(normaliseEmail('jane@proton.me')).toBe('jane@protonmail.com');
  });

  it('Fastmail: +tag and subdomain addressing', () => {
    expect(normaliseEmail('shop@jane.fastmail.com')).toBe('jane@fastmail.com');
    expect(sameMailbox('jane+x@fastmail.com', 'anything@jane.fastmail.com', 'jane@fastmail.com')).toBe(true);
    expect(sameMailbox('x@jane.fastmail.fm', 'jane@fastmail.fm')).toBe(true);
    // Only one label deep, and only under Fastmail's own domains.
    expect(normaliseEmail('x@a.b.fastmail.com')).toBe('x@a.b.fastmail.com');
    expect(normaliseEmail('shop@jane.example.com')).toBe('shop@jane.example.com');
  });

  it('Yahoo: a disposable basename-keyword address is the base name', () => {
    expect(normaliseEmail('jane-shop@yahoo.com')).toBe('jane@yahoo.com');
    expect(sameMailbox('jane-a@yahoo.co.uk', 'jane+b@yahoo.co.uk', 'jane@yahoo.co.uk')).toBe(true);
    // Yahoo's dot is part of the name; a '-' elsewhere is an ordinary character.
    expect(sameMailbox('jane.doe@yahoo.com', 'janedoe@yahoo.com')).toBe(false);
    expect(normaliseEmail('jane-doe@example.com')).toBe('jane-doe@example.com');
  });

  it('every other domain: case and +tag only', () => {
    expect(normaliseEmail(' Jane.Doe+x@Example.COM ')).toBe('jane.doe@example.com');
    expect(normaliseEmail('+1@example.com')).toBe('+1@example.com');
    expect(normaliseEmail('no-at-sign')).toBe('no-at-sign');
  });
});

describe('markers claimed before the mailbox rules', () => {
  it('are found through the first normalisation when it differs', () => {
    const email = 'jane-shop@yahoo.com';
    expect(firstNormalisation(email)).toBe('jane-shop@yahoo.com');
    const before = createHmac('sha256', PEPPER)
      .update('headshot-studio:signup-bonus:jane-shop@yahoo.com')
      .digest('hex');
    expect(previousBonusKey(email, PEPPER)).toBe(before);
    expect(previousBonusKey(email, PEPPER)).not.toBe(bonusKey(email, PEPPER));
  });

  it('need no second check when both normalisations agree', () => {
    expect(previousBonusKey('Jane.Doe+x@GoogleMail.com', PEPPER)).toBeUndefined();
    expect(() => previousBonusKey('jane@example.com', '')).toThrow(/pepper/);
  });
});
