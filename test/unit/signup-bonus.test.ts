import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isDisposableAddress } from '../../functions/domain/disposable-addresses';
import {
  bonusKey as pepperedKey,
  legacyBonusKey,
  normaliseEmail,
  signupBonusOf,
} from '../../functions/domain/signup-bonus';

const PEPPER = 'unit-test-pepper';
const bonusKey = (email: string) => pepperedKey(email, PEPPER);

describe('once-per-person sign-up bonus key', () => {
  it('reduces the variants of one address to one person', () => {
    expect(normaliseEmail(' Jane.Doe+linkedin@Example.COM ')).toBe('jane.doe@example.com');
    expect(normaliseEmail('JANE.DOE@EXAMPLE.COM')).toBe('jane.doe@example.com');
    expect(normaliseEmail('j.a.n.e.d.o.e+2@googlemail.com')).toBe('janedoe@gmail.com');
    expect(normaliseEmail('JaneDoe@Gmail.com')).toBe('janedoe@gmail.com');
    const keys = ['jane.doe@example.com', 'Jane.Doe@example.com', 'jane.doe+x@example.com'].map(bonusKey);
    expect(new Set(keys).size).toBe(1);
    expect(bonusKey('jane.doe@gmail.com')).toBe(bonusKey('janedoe+tag@googlemail.com'));
  });

  it('keeps different people apart, and only drops dots where the provider ignores them', () => {
    expect(bonusKey('jane.doe@example.com')).not.toBe(bonusKey('janedoe@example.com'));
    expect(bonusKey('jane@example.com')).not.toBe(bonusKey('jane@example.org'));
    // A leading '+' is a real local part, not a tag.
    expect(normaliseEmail('+1@example.com')).toBe('+1@example.com');
    expect(bonusKey('jane@example.com')).toMatch(/^[0-9a-f]{64}$/);
    expect(bonusKey('jane@example.com')).not.toContain('jane');
  });

  it('is HMAC-SHA256 keyed with the pepper, not the plain SHA-256 a guesser could compute', () => {
    const input = 'headshot-studio:signup-bonus:janedoe@gmail.com';
    const hmac = createHmac('sha256', PEPPER).update(input).digest('hex');
    const plain = createHash('sha256').update(input).digest('hex');
    expect(bonusKey('Jane.Doe+x@GoogleMail.com')).toBe(hmac);
    expect(bonusKey('Jane.Doe+x@GoogleMail.com')).not.toBe(plain);
    // The legacy key (only checked, never written) is that plain hash, of the same normalised address.
    expect(legacyBonusKey('Jane.Doe+x@GoogleMail.com')).toBe(plain);
    // Stable for one normalised address and pepper; another pepper gives another key.
    expect(bonusKey('janedoe@gmail.com')).toBe(hmac);
    expect(pepperedKey('janedoe@gmail.com', 'another-pepper')).not.toBe(hmac);
  });

  it('refuses an empty pepper rather than write a guessable marker', () => {
    expect(() => pepperedKey('jane@example.com', '')).toThrow(/pepper/);
  });
});

describe('disposable addresses get no sign-up bonus', () => {
  it('knows the listed services, their subdomains and any spelling of them', () => {
    expect(isDisposableAddress('someone@mailinator.com')).toBe(true);
    expect(isDisposableAddress(' Someone@MAILINATOR.COM ')).toBe(true);
    expect(isDisposableAddress('someone@inbox.guerrillamail.com')).toBe(true);
    expect(isDisposableAddress('someone@mailinator.com.')).toBe(true);
  });

  it('leaves ordinary providers and company domains alone, and lookalikes of listed ones', () => {
    for (const email of [
      'jane@gmail.com',
      'jane@outlook.com',
      'jane@example.com',
      'jane@mailinator-fans.org',
    ])
      expect(isDisposableAddress(email), email).toBe(false);
    expect(isDisposableAddress('no-at-sign')).toBe(false);
    expect(signupBonusOf('disposable-address')).toBe('disposable-address');
    expect(signupBonusOf(undefined)).toBe('granted');
  });
});
