import { describe, expect, it } from 'vitest';
import { readyMail } from '../../functions/domain/ready-mail';

const base = { displayName: 'Ada', dashboardUrl: 'https://headshots.example.com/dashboard' };

describe('the ready e-mail reads right in the singular and the plural', () => {
  it('says "Your 1 headshot is ready" and "Your 6 headshots are ready"', () => {
    expect(readyMail({ ...base, status: 'succeeded', delivered: 1, refunded: 0 }).text).toContain(
      'Your 1 headshot is ready to view and download.',
    );
    expect(readyMail({ ...base, status: 'succeeded', delivered: 6, refunded: 0 }).text).toContain(
      'Your 6 headshots are ready to view and download.',
    );
  });

  it('counts a partial result and its refund in the right number', () => {
    const one = readyMail({ ...base, status: 'partial', delivered: 1, refunded: 5 });
    expect(one.subject).toBe('1 headshot ready, 5 credits refunded');
    expect(one.text).toContain('1 headshot is ready to view and download.');
    const five = readyMail({ ...base, status: 'partial', delivered: 5, refunded: 1 });
    expect(five.subject).toBe('5 headshots ready, 1 credit refunded');
    expect(five.text).toContain('so 1 credit went back to your balance.');
  });
});
