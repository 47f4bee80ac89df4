import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { createSmtpMailer, EmailSendError } from './mailer';

const email = { to: 'lettore@example.it', subject: 'La tua guida', text: 'Ecco il link.' };
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('SMTP mailer', () => {
  it('sends through a real SMTP server', async () => {
    const smtp: SmtpCapture = await startSmtpCapture();
    closers.push(() => smtp.close());
    const mailer = createSmtpMailer(smtp.url, 'Guida <guida@example.it>');
    closers.push(async () => mailer.close());
    await expect(mailer.send(email)).resolves.toMatchObject({ messageId: expect.any(String) });
    expect(await smtp.waitForEmails(1)).toHaveLength(1);
  });

  it('gives up on a server that accepts the connection and never answers, as a retryable failure', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      silent.close();
      return undefined;
    });
    const { port } = silent.address() as net.AddressInfo;
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, 'guida@example.it', {
      connectionTimeout: 300,
      greetingTimeout: 300,
      socketTimeout: 300,
    });
    closers.push(async () => mailer.close());
    const failure = await mailer.send(email).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EmailSendError);
    expect((failure as EmailSendError).permanent).toBe(false);
  });
});
