import { describe, expect, it } from 'vitest';
import { mailboxOf } from './gdpr-rules';

describe('mailboxOf', () => {
  it.each([
    ['Mario.Rossi@Example.it', 'mario.rossi@example.it'],
    ['mario+guida@example.it', 'mario@example.it'],
    ['mario+a+b@example.it', 'mario@example.it'],
    ['m.a.r.i.o+1@gmail.com', 'mario@gmail.com'],
    ['M.ario@GoogleMail.com', 'mario@gmail.com'],
    [' mario@gmail.com ', 'mario@gmail.com'],
    // Dots elsewhere may be another person's mailbox; a local part of only "+x" is left as is.
    ['m.ario@libero.it', 'm.ario@libero.it'],
    ['+x@example.it', '+x@example.it'],
  ])('%s is the mailbox %s', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});
