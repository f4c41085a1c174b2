import { describe, expect, it } from 'vitest';
import { loggableMailError } from '../../functions/adapters/mailer';

describe('loggableMailError', () => {
  it("keeps SES's reason but never the customer's address", () => {
    const error = new Error(
      'Email address is not verified. The following identities failed the check in region US-EAST-1: jane.doe+cv@example.co.uk, ops@example.com',
    );
    error.name = 'MessageRejected';
    const logged = loggableMailError(error);
    expect(logged.name).toBe('MessageRejected');
    expect(logged.message).toBe(
      'Email address is not verified. The following identities failed the check in region US-EAST-1: <address>, <address>',
    );
    expect(logged.stack).not.toContain('@example');
    expect(logged.stack).toContain('MessageRejected');
  });

  it('logs a thrown non-error as its text', () => {
    expect(loggableMailError('socket hang up')).toMatchObject({ name: 'Error', message: 'socket hang up' });
  });
});
